// Electron's main process and preload, bundled into dist/main and dist/preload (`npm run build:main`
// runs this through tools/build.ts), so the packaged app.asar needs no node_modules at all.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Electron 45: Node 22 in main, Chromium 140 in the renderer (and the preload). */
const NODE_TARGET = 'node22';
const CHROME_TARGET = 'chrome140';

export interface BundleResult {
  main: string;
  preload: string;
}

/** Builds both bundles under `outDir` (dist/ by default); returns their paths. */
export async function buildBundles(outDir = join(ROOT, 'dist')): Promise<BundleResult> {
  const main = join(outDir, 'main', 'index.cjs');
  const preload = join(outDir, 'preload', 'index.cjs');
  const common: BuildOptions = {
    bundle: true,
    format: 'cjs',
    platform: 'node',
    sourcemap: 'linked',
    legalComments: 'linked',
    logLevel: 'warning',
    absWorkingDir: ROOT,
    define: { 'process.env.NODE_ENV': '"production"' },
  };
  await Promise.all([
    rm(join(outDir, 'main'), { recursive: true, force: true }),
    rm(join(outDir, 'preload'), { recursive: true, force: true }),
  ]);
  await Promise.all([
    build({
      ...common,
      entryPoints: [join(ROOT, 'src/main/index.ts')],
      outfile: main,
      target: NODE_TARGET,
      // ws's optional native speed-ups: ws works without them, and they would need rebuilding.
      external: ['electron', 'bufferutil', 'utf-8-validate'],
    }),
    build({
      ...common,
      entryPoints: [join(ROOT, 'src/preload/index.ts')],
      outfile: preload,
      target: CHROME_TARGET,
      // A sandboxed preload may require only 'electron' (and a few polyfilled modules).
      external: ['electron'],
      // It carries zod to check what main sends, and is parsed again at every load of the page.
      minify: true,
    }),
  ]);
  return { main, preload };
}
