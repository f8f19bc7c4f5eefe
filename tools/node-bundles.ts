// The service, the web player and the `npm start` launcher as one ES module each for plain Node:
// dist/service/server.mjs, dist/web-player/main.mjs and dist/launcher/launch.mjs, every runtime
// dependency inside but the few below. The web player and the launcher find the renderer and
// package.json by their own location (../../dist/renderer, ../../package.json), which is right
// from src/<folder>/ and from dist/<folder>/ alike.
import { createRequire } from 'node:module';
import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Metafile, Plugin } from 'esbuild';
import { TEMPLATE_FILE } from '../service/db/store-template-file.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The project's own Node, which the npm scripts run the bundles on. */
const NODE_TARGET = 'node24';

/** Entry points, and their bundles under dist/. */
export const NODE_BUNDLES = {
  service: { entry: 'service/server.ts', outfile: 'service/server.mjs', holdsService: true },
  'web-player': { entry: 'src/web-player/main.ts', outfile: 'web-player/main.mjs', holdsService: false },
  launcher: { entry: 'src/launcher/launch.ts', outfile: 'launcher/launch.mjs', holdsService: true },
} as const;

export type NodeBundle = keyof typeof NODE_BUNDLES;

/**
 * Left in node_modules (which `npm ci` fills) because they cannot work from inside a bundle:
 * PGlite loads its WebAssembly and data files from beside its own module; @fastify/swagger-ui
 * serves Swagger UI's files from its own folder and reads its logo from there when registered;
 * pg-native (pg's), bufferutil and utf-8-validate (ws's) are optional native addons, tried in a
 * try/catch and done without.
 */
const EXTERNAL = ['@electric-sql/pglite', '@fastify/swagger-ui', 'pg-native', 'bufferutil', 'utf-8-validate'];

/**
 * An ES module has no `require`; the CommonJS packages inside (fastify, pg, socket.io) call it
 * for Node's own modules, which esbuild leaves to a `require` in scope.
 */
const BANNER =
  "import { createRequire as __wallboardCreateRequire } from 'node:module';\n" +
  'const require = __wallboardCreateRequire(import.meta.url);';

const HOST_LOCATION = join(ROOT, 'service', 'scripts', 'host', 'location');
const BUNDLED_HOST_LOCATION = join(ROOT, 'service', 'scripts', 'host', 'location-bundled.ts');

/**
 * The script host's location as the bundled service sees it: beside the bundle, never built at
 * run time. The module is swapped rather than a branch left dead: esbuild would still bundle what
 * a dead branch imports (esbuild itself, here).
 */
const bundledHostLocation: Plugin = {
  name: 'bundled-script-host-location',
  setup(build) {
    build.onResolve({ filter: /(^|\/)location$/ }, (args) =>
      resolve(args.resolveDir, args.path) === HOST_LOCATION ? { path: BUNDLED_HOST_LOCATION } : undefined,
    );
  },
};

/**
 * A package the service imports only when first used (`await import('nodemailer')`) is taken in
 * its CommonJS build where it has one. esbuild hoists an ES build's imports of Node's own modules
 * to the bundle's top, where they load at every start: nodemailer's `import http from
 * 'node:http'` made Node build the ES facade of node:http, which reads every export and so loads
 * undici (about 17 ms of each start). A CommonJS build's `require('http')` runs at first use.
 */
const lazyAsCommonJs: Plugin = {
  name: 'lazy-imports-as-commonjs',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.kind !== 'dynamic-import' || args.path.startsWith('node:') || EXTERNAL.includes(args.path)) {
        return undefined;
      }
      try {
        return { path: createRequire(args.importer).resolve(args.path) };
      } catch {
        return undefined; // no CommonJS build: esbuild resolves its ES one
      }
    });
  },
};

/** What must never be in a bundle: the build tools, which the product runs without. */
const TOOLING = [
  /(^|\/)node_modules\/(esbuild|vite|typescript|tsx)\//,
  /^service\/scripts\/host\/build\.ts$/,
];

function checkInputs(name: NodeBundle, metafile: Metafile): void {
  const tooling = Object.keys(metafile.inputs).filter((input) => TOOLING.some((rule) => rule.test(input)));
  if (tooling.length > 0)
    throw new Error(`the ${name} bundle would contain build tooling: ${tooling.join(', ')}`);
}

/**
 * Bundles `entry` (a path from the repository's root, or code whose imports are from there) into
 * `outfile` the way the product's Node bundles are: the benches build their floors with this, so
 * that a floor runs in the same form.
 */
export async function bundleForNode(entry: string | { code: string }, outfile: string): Promise<Metafile> {
  const { build } = await import('esbuild');
  const result = await build({
    ...(typeof entry === 'string'
      ? { entryPoints: [join(ROOT, entry)] }
      : { stdin: { contents: entry.code, resolveDir: ROOT, loader: 'ts' as const } }),
    outfile,
    absWorkingDir: ROOT,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: NODE_TARGET,
    external: EXTERNAL,
    banner: { js: BANNER },
    // What users run is production: the service sends its answers unchecked (service/http/answers.ts).
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [bundledHostLocation, lazyAsCommonJs],
    sourcemap: 'linked',
    legalComments: 'linked',
    metafile: true,
    logLevel: 'warning',
  });
  await asciiOnly(outfile);
  return result.metafile;
}

/**
 * esbuild writes strings and patterns in ASCII, but keeps the comments of the bundled packages
 * as they are, typographic quotes included; one character past ASCII makes V8 hold the whole
 * script as UTF-16, twice its size, for as long as the process runs (16 MB more for the service).
 * Those characters are all in comments, and each becomes a `?`, one for one, so that the
 * source map's columns stay true.
 */
async function asciiOnly(file: string): Promise<void> {
  const text = await readFile(file, 'utf8');
  // eslint-disable-next-line no-control-regex
  const ascii = text.replace(/[^\x00-\x7f]/g, '?');
  if (ascii !== text) await writeFile(file, ascii);
}

/**
 * What starts a bundle: a few lines that turn on Node's compile cache (`module.enableCompileCache`,
 * in the folder NODE_COMPILE_CACHE names, the system's temporary one by default) and then import
 * the bundle. V8 compiles the 8 MB service anew at every start otherwise, a fifth of its start
 * (about 100 ms of 500 on this machine); with the cache a restart reads the compiled code. The
 * cache must be on before the bundle is loaded, so it cannot be in the bundle. A cache that
 * cannot be written (a read-only folder) costs nothing: Node starts without it.
 */
const startWithCompileCache = (body: string) =>
  "import { enableCompileCache } from 'node:module';\n" +
  'enableCompileCache();\n' +
  `await import('./${body}');\n`;

/** The bundle's own file beside `outfile`, which starts it: service/server.mjs -> server.body.mjs. */
export const bodyOf = (outfile: string) => outfile.replace(/\.mjs$/, '.body.mjs');

/** The template of a new store beside a bundle that holds the service: service/server.mjs -> service/fresh-store.sqlite. */
export const storeTemplateOf = (outfile: string) => join(dirname(outfile), TEMPLATE_FILE);

/**
 * Writes the template of a new embedded store to `file` (service/db/store-template.ts): this
 * build's migrations, bundled as the service is and run once by plain Node.
 */
async function buildStoreTemplate(file: string): Promise<void> {
  const maker = `${file}.make.mjs`;
  try {
    await bundleForNode(
      {
        code:
          "import { makeStoreTemplate } from './service/db/make-store-template';\n" +
          'await makeStoreTemplate(process.argv[2]);\n',
      },
      maker,
    );
    await promisify(execFile)(process.execPath, [maker, file]);
  } finally {
    await Promise.all(['', '.map', '.LEGAL.txt'].map((suffix) => rm(`${maker}${suffix}`, { force: true })));
  }
}

/** Builds one bundle under `outDir` (dist/ by default); returns the path of what starts it. */
export async function buildNodeBundle(name: NodeBundle, outDir = join(ROOT, 'dist')): Promise<string> {
  const { entry, outfile, holdsService } = NODE_BUNDLES[name];
  const body = bodyOf(outfile);
  checkInputs(name, await bundleForNode(entry, join(outDir, body)));
  if (holdsService) await buildStoreTemplate(join(outDir, storeTemplateOf(outfile)));
  await writeFile(join(outDir, outfile), startWithCompileCache(basename(body)));
  return join(outDir, outfile);
}
