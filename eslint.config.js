// Layering, after VS Code's: shared knows no platform, the renderer knows no Node or Electron,
// the agent and the service know no Electron. A broken rule fails `npm run lint`.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const nodeMessage = 'Node modules are not allowed in this layer.';
// Bare builtin names go by exact path: as gitignore-style patterns "events" would match "./events".
const nodePaths = builtinModules.map((name) => ({ name, message: nodeMessage }));
const node = { group: ['node:*'], message: nodeMessage };
const electron = { group: ['electron', 'electron/*'], message: 'Electron is not allowed in this layer.' };
const ui = {
  group: ['react', 'react-dom', 'react/*', 'react-dom/*'],
  message: 'UI libraries belong in the renderer.',
};

// Every room of the product and what it may import from the others: an allow-list. Each room is
// denied every other room it does not name, and a folder in no room fails lint until it is placed
// here (see the end of this file). `imports` of a room are given as gitignore-style patterns of
// import specifiers. `packages` are the npm packages the room may import, type-only imports
// included, after Signal Desktop, which classifies every package by the runtime it may run in: a
// new dependency is a decision about a room, so a package on no list fails lint where it is first
// imported. Node's built-ins are not listed: PLATFORM below decides where Node is allowed.
const ROOMS = {
  shared: {
    files: ['src/shared/**'],
    imports: ['**/src/shared/**', '**/shared/*'],
    may: [],
    packages: ['temporal-polyfill', 'zod'],
  },
  // Plain Node helpers of every Node process: how it stops, how it logs, how a cache stays bounded.
  node: {
    files: ['src/node/**'],
    imports: ['**/src/node/**', '**/node/*'],
    may: [],
    packages: ['close-with-grace', 'pino'],
  },
  renderer: {
    files: ['renderer/src/**'],
    imports: ['**/renderer/**'],
    may: ['shared'],
    packages: [
      '@fortawesome/fontawesome-common-types',
      '@fortawesome/free-solid-svg-icons',
      'd3-shape',
      'leaflet',
      'modern-screenshot',
      'react',
      'react-dom',
      'uplot',
      'uqr',
      'zod',
    ],
  },
  // The operators' web UI; it draws boards and banners with the renderer's own components.
  console: {
    files: ['console/src/**'],
    imports: ['**/console/**'],
    may: ['shared', 'renderer'],
    packages: [
      '@codemirror/lang-css',
      '@codemirror/lang-html',
      '@codemirror/lang-javascript',
      '@codemirror/lang-json',
      '@codemirror/language',
      '@codemirror/lint',
      '@codemirror/state',
      '@codemirror/view',
      '@dnd-kit/core',
      '@dnd-kit/sortable',
      '@dnd-kit/utilities',
      '@fortawesome/fontawesome-common-types',
      '@fortawesome/free-solid-svg-icons',
      '@lezer/highlight',
      '@mantine/core',
      '@mantine/dropzone',
      '@mantine/form',
      '@mantine/hooks',
      '@mantine/modals',
      '@mantine/notifications',
      '@tanstack/react-query',
      '@tanstack/react-virtual',
      'codemirror',
      'jsonc-parser',
      'react',
      'react-dom',
      'react-grid-layout',
      'react-router',
      'socket.io-client',
      'zod',
    ],
  },
  agent: {
    files: ['src/agent/**'],
    imports: ['**/src/agent/**', '**/agent/*'],
    may: ['shared', 'node'],
    packages: ['bonjour-service', 'pino', 'socket.io-client', 'systeminformation', 'zod'],
  },
  preload: {
    files: ['src/preload/**'],
    imports: ['**/src/preload/**', '**/preload/*'],
    may: ['shared'],
    packages: ['electron', 'zod'],
  },
  // The Electron shell.
  main: {
    files: ['src/main/**'],
    imports: ['**/src/main/**', '**/main/*'],
    may: ['agent', 'shared', 'node'],
    packages: ['electron', 'electron-store', 'electron-updater', 'zod'],
  },
  webPlayer: {
    files: ['src/web-player/**'],
    imports: ['**/src/web-player/**', '**/web-player/*'],
    may: ['agent', 'shared', 'node'],
    packages: ['ws'],
  },
  // `npm start`: plain Node, with the embedded service.
  launcher: {
    files: ['src/launcher/**'],
    imports: ['**/src/launcher/**', '**/launcher/*'],
    may: ['agent', 'shared', 'node', 'webPlayer', 'service'],
    packages: ['systeminformation'],
  },
  service: {
    files: ['service/**'],
    imports: ['**/service/**'],
    may: ['shared', 'node'],
    packages: [
      '@electric-sql/pglite',
      '@fastify/cookie',
      '@fastify/multipart',
      '@fastify/proxy-addr',
      '@fastify/static',
      '@fastify/swagger',
      '@fastify/swagger-ui',
      '@jitl/quickjs-singlefile-cjs-release-sync',
      '@jitl/quickjs-wasmfile-release-sync',
      // Data sources' query language over an HTTP answer and a binding's mapping (service/data-sources/).
      '@jmespath-community/jmespath',
      '@socket.io/postgres-adapter',
      'bonjour-service',
      // CSV data sources (service/data-sources/kinds/csv.ts).
      'csv-parse',
      // The script host's build step (scripts/host/build.ts) runs esbuild, whose plugin supplies
      // the guest prelude to the host as a virtual module.
      'esbuild',
      'virtual:wallboard-guest-prelude',
      'fast-json-patch',
      // CAP feeds' XML, with no DTD (service/cap/xml.ts).
      'fast-xml-parser',
      'fastify',
      'fastify-type-provider-zod',
      'file-type',
      // iCalendar data sources, recurrences and time zones (service/data-sources/kinds/ical.ts).
      'ical.js',
      'ipaddr.js',
      'kysely',
      'lru-cache',
      // MySQL and MariaDB data sources (service/data-sources/kinds/mysql.ts).
      'mysql2',
      // E-mail alerts over SMTP (service/alerts/email.ts).
      'nodemailer',
      // Single sign-on through OpenID Connect (service/sso/provider.ts).
      'openid-client',
      'pg',
      'quickjs-emscripten-core',
      // RSS and Atom data sources, parsing only (service/data-sources/kinds/rss.ts).
      'rss-parser',
      'socket.io',
      'undici',
      // The shell releases' feeds, as electron-builder writes them (service/domain/release-manifests.ts).
      'yaml',
      'zod',
    ],
  },
  // The host of a custom widget's code, in its sandboxed frame: a plain browser script, alone.
  customFrame: { files: ['renderer/public/**'], imports: [], may: [], packages: [] },
  // The guest prelude runs inside a script's QuickJS engine: the ECMAScript built-ins only.
  guest: { files: ['service/scripts/host/guest/**'], imports: [], may: [], packages: [] },
  // The build: it bundles the script host with the service's own build step.
  tools: {
    files: ['tools/**'],
    imports: ['**/tools/**'],
    may: ['service', 'shared'],
    packages: ['esbuild', 'prettier', 'tsx', 'vite'],
  },
};
const PLATFORM = {
  shared: [node, electron, ui],
  node: [electron, ui],
  renderer: [node, electron],
  console: [node, electron],
  agent: [electron, ui],
  preload: [node, ui],
  main: [ui],
  webPlayer: [electron, ui],
  launcher: [electron, ui],
  service: [electron, ui],
  guest: [node, electron, ui],
  customFrame: [node, electron, ui],
  tools: [electron, ui],
};
// Test helpers and configurations live beside the code; no product file may import them.
const TEST_CODE = [
  '**/*.test.ts',
  '**/*.test.tsx',
  '**/testing/**',
  // Real servers (Prometheus, MariaDB, HTTP) the data sources' tests, e2e specs and bench query.
  '**/test-servers/**',
  '**/*test-kit*',
  'e2e/**',
  'bench/**',
];
const testImports = {
  group: [
    '**/testing/*',
    '**/testing/**',
    '**/*test-kit*',
    '**/test-support*',
    '**/fuzz-support*',
    '**/*.test',
    '**/chromium',
    '**/chromium.ts',
    '**/*.config',
    '**/*.config.ts',
    '**/e2e/**',
    '**/bench/**',
  ],
  message: 'Product code must not import tests, their helpers or their configuration.',
};
const TEST_FILES = [...TEST_CODE, 'service/test-support.ts', 'service/fuzz-support.ts'];

// The npm packages a platform rule already refuses; the package list stays silent on them, so a
// stray `electron` or `react` gets one message, the one that says why.
const PLATFORM_PACKAGES = new Map([
  [electron, ['electron']],
  [ui, ['react', 'react-dom']],
]);
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A bare specifier (not relative, not absolute) of a package, or a path inside it, that the room
// does not list. Node's built-ins, with or without `node:`, are left to the platform rules.
const unlistedPackages = (name) => {
  const exempt = [
    ...ROOMS[name].packages,
    ...PLATFORM[name].flatMap((rule) => PLATFORM_PACKAGES.get(rule) ?? []),
    ...builtinModules,
  ];
  return {
    regex: `^(?![./]|node:|(?:${exempt.map(escape).join('|')})(?:/|$))`,
    message: `${name} may import only the npm packages it lists: if it should depend on this one, add it to ROOMS.${name}.packages in eslint.config.js.`,
  };
};

const denied = (name) =>
  Object.entries(ROOMS)
    .filter(([other]) => other !== name && !ROOMS[name].may.includes(other) && ROOMS[other].imports.length)
    .map(([other, room]) => ({
      group: room.imports,
      message: `${other} must not be imported from ${name}.`,
    }));

const placeRoom = (name) => {
  const packages = unlistedPackages(name);
  const patterns = [...PLATFORM[name], ...denied(name), testImports, packages];
  return {
    files: ROOMS[name].files,
    ignores: TEST_FILES,
    rules: {
      'no-restricted-imports': ['error', { paths: patterns.includes(node) ? nodePaths : [], patterns }],
      // no-restricted-imports reads only static imports; a package loaded on demand is one too.
      'no-restricted-syntax': [
        'error',
        {
          selector: `ImportExpression[source.value=/${packages.regex.replaceAll('/', '\\/')}/]`,
          message: packages.message,
        },
      ],
    },
  };
};

// Everything that is not in a room, a test, or a configuration named here.
const PLACED = [
  ...Object.values(ROOMS).flatMap((room) => room.files),
  ...TEST_FILES,
  'src/*.test.ts',
  '*.config.{js,ts}',
  '.dependency-cruiser.cjs',
  'renderer/vite.config.ts',
  'console/vite.config.ts',
  'chromium.ts',
  '.ci/**',
];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'out/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}', 'renderer/public/*.js', 'console/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Playwright fixtures that use no other fixture take `{}`.
      'no-empty-pattern': 'off',
    },
  },
  ...Object.keys(ROOMS).map(placeRoom),
  {
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    ignores: PLACED,
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'Program', message: 'This folder is in no room: place it in ROOMS of eslint.config.js.' },
      ],
    },
  },
  {
    files: ['src/shared/**', 'service/scripts/host/guest/**'],
    ignores: ['**/*.test.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-globals': [
        'error',
        ...[
          'window',
          'document',
          'navigator',
          'localStorage',
          'process',
          'Buffer',
          'require',
          '__dirname',
        ].map((name) => ({ name, message: 'This layer is platform-free: no DOM or Node globals.' })),
      ],
    },
  },
);
