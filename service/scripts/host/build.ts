// Builds the script host into one file, dist/script-host/host.cjs: the host, QuickJS with its
// WebAssembly's bytes inlined (compiled once by the host, main.ts), and the guest prelude as
// text. One file, so that the host's permission to read the file system can be that file alone. `npm run build` builds it (tools/build.ts); a
// service running from source (the tests) builds it on first use when it is missing or older than
// its sources (location.ts). A bundled service never comes here (location-bundled.ts).
import { mkdir, readdir, rename, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SOURCE = fileURLToPath(new URL('.', import.meta.url));
export const HOST_BUNDLE = join(ROOT, 'dist', 'script-host', 'host.cjs');
/** The project's own Node (24), which the service and so its hosts run on. */
const NODE_TARGET = 'node24';

/** When the host's sources (and the QuickJS packages in it) last changed, in ms. */
export async function newestSource(): Promise<number> {
  const files = (await readdir(SOURCE, { recursive: true })).filter((file) => file.endsWith('.ts'));
  const packages = ['quickjs-emscripten-core', '@jitl/quickjs-wasmfile-release-sync'].map((name) =>
    join(ROOT, 'node_modules', name, 'package.json'),
  );
  const times = await Promise.all(
    [...files.map((file) => join(SOURCE, file)), ...packages].map(async (file) => (await stat(file)).mtimeMs),
  );
  return Math.max(...times);
}

/** The guest prelude, compiled to a script whose value is its exports. */
async function preludeSource(): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [join(SOURCE, 'guest', 'prelude.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'wallboardPrelude',
    target: 'es2023',
    logLevel: 'warning',
  });
  // Evaluated as a script, the last expression is its value: the exports, not a global.
  return `${result.outputFiles[0]?.text ?? ''};wallboardPrelude`;
}

export async function buildScriptHost(outFile = HOST_BUNDLE): Promise<string> {
  const { build } = await import('esbuild');
  const prelude = await preludeSource();
  const virtualPrelude: Plugin = {
    name: 'guest-prelude',
    setup(plugin) {
      plugin.onResolve({ filter: /^virtual:wallboard-guest-prelude$/ }, (args) => ({
        path: args.path,
        namespace: 'guest-prelude',
      }));
      plugin.onLoad({ filter: /.*/, namespace: 'guest-prelude' }, () => ({
        contents: `export default ${JSON.stringify(prelude)};`,
        loader: 'js',
      }));
    },
  };
  await mkdir(dirname(outFile), { recursive: true });
  // Written aside and renamed: several processes (test workers) may build at once.
  const partial = `${outFile}.${process.pid}.partial`;
  await build({
    entryPoints: [join(SOURCE, 'main.ts')],
    outfile: partial,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: NODE_TARGET,
    legalComments: 'none',
    logLevel: 'warning',
    // The engine's WebAssembly goes into the bundle as bytes: the host reads no other file.
    loader: { '.wasm': 'binary' },
    // The engine's ES module asks for its own URL, which a CommonJS bundle has as its file's.
    define: { 'import.meta.url': 'bundleUrl' },
    banner: { js: "const bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    plugins: [virtualPrelude],
  });
  await rename(partial, outFile);
  return outFile;
}
