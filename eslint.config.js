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
// import specifiers.
const ROOMS = {
  shared: { files: ['src/shared/**'], imports: ['**/src/shared/**', '**/shared/*'], may: [] },
  // Plain Node helpers of every Node process: how it stops, how it logs.
  node: { files: ['src/node/**'], imports: ['**/src/node/**', '**/node/*'], may: [] },
  renderer: { files: ['renderer/src/**'], imports: ['**/renderer/**'], may: ['shared'] },
  // The operators' web UI; it draws boards and banners with the renderer's own components.
  console: { files: ['console/src/**'], imports: ['**/console/**'], may: ['shared', 'renderer'] },
  agent: { files: ['src/agent/**'], imports: ['**/src/agent/**', '**/agent/*'], may: ['shared', 'node'] },
  preload: { files: ['src/preload/**'], imports: ['**/src/preload/**', '**/preload/*'], may: ['shared'] },
  // The Electron shell.
  main: {
    files: ['src/main/**'],
    imports: ['**/src/main/**', '**/main/*'],
    may: ['agent', 'shared', 'node'],
  },
  webPlayer: {
    files: ['src/web-player/**'],
    imports: ['**/src/web-player/**', '**/web-player/*'],
    may: ['agent', 'shared', 'node'],
  },
  // `npm start`: plain Node, with the embedded service.
  launcher: {
    files: ['src/launcher/**'],
    imports: ['**/src/launcher/**', '**/launcher/*'],
    may: ['agent', 'shared', 'node', 'webPlayer', 'service'],
  },
  service: { files: ['service/**'], imports: ['**/service/**'], may: ['shared', 'node'] },
  // The host of a custom widget's code, in its sandboxed frame: a plain browser script, alone.
  customFrame: { files: ['renderer/public/**'], imports: [], may: [] },
  // The guest prelude runs inside a script's QuickJS engine: the ECMAScript built-ins only.
  guest: { files: ['service/scripts/host/guest/**'], imports: [], may: [] },
  // The build: it bundles the script host with the service's own build step.
  tools: { files: ['tools/**'], imports: ['**/tools/**'], may: ['service', 'shared'] },
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
const TEST_CODE = ['**/*.test.ts', '**/*.test.tsx', '**/testing/**', '**/*test-kit*', 'e2e/**', 'bench/**'];
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

const denied = (name) =>
  Object.entries(ROOMS)
    .filter(([other]) => other !== name && !ROOMS[name].may.includes(other) && ROOMS[other].imports.length)
    .map(([other, room]) => ({
      group: room.imports,
      message: `${other} must not be imported from ${name}.`,
    }));

const placeRoom = (name) => {
  const patterns = [...PLATFORM[name], ...denied(name), testImports];
  return {
    files: ROOMS[name].files,
    ignores: TEST_FILES,
    rules: {
      'no-restricted-imports': ['error', { paths: patterns.includes(node) ? nodePaths : [], patterns }],
    },
  };
};

// Everything that is not in a room, a test, or a configuration named here.
const PLACED = [
  ...Object.values(ROOMS).flatMap((room) => room.files),
  ...TEST_FILES,
  'src/*.test.ts',
  '*.config.{js,ts}',
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
