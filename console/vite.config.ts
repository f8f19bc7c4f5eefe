import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { CONSOLE_BASE, CSP_NONCE_PLACEHOLDER } from '../src/shared/console-page.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

const ICON_PACK = '@fortawesome/free-solid-svg-icons';
/**
 * The console imports single icons from Font Awesome's solid pack (`{ faTv }`); the renderer's
 * icon module, which the notification preview draws with, uses the whole pack (`fas`, ~1.3 MB).
 * As one module the whole pack would land in the first bundle with the shell's few icons, so the
 * whole-pack users (the renderer's code, and `ICON_PACK/index.js` named on purpose) get the
 * package's CommonJS build: a module of its own, in the chunks of the pages that draw them.
 */
function wholeIconPack(): Plugin {
  const commonJs = createRequire(import.meta.url).resolve(ICON_PACK);
  return {
    name: 'wallboard-whole-icon-pack',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === `${ICON_PACK}/index.js`) return commonJs;
      if (source === ICON_PACK && importer?.includes('/renderer/src/')) return commonJs;
      return null;
    },
  };
}

export default defineConfig({
  root,
  base: CONSOLE_BASE,
  plugins: [wholeIconPack()],
  // Vite puts the nonce on its own tags and in `<meta property="csp-nonce">`, where Mantine reads
  // it for the few style elements it writes.
  html: { cspNonce: CSP_NONCE_PLACEHOLDER },
  // The custom widget's host pages (src/shared/custom-frame.ts), for the board editor's previews.
  publicDir: fileURLToPath(new URL('../renderer/public', import.meta.url)),
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    target: 'chrome120',
    // The initial bundle's budget is bench/console's (300 kB gzipped); pages load on demand.
    chunkSizeWarningLimit: 600,
  },
});
