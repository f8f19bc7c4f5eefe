import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

// Relative asset paths, so the same bundle loads from the app protocol inside Electron and from
// the web player's HTTP server.
export default defineConfig({
  root,
  base: './',
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'chrome120',
    // One bundle read from disk (or loopback), never over a network: its size is not a concern,
    // and the bundled icon library alone is most of it.
    chunkSizeWarningLimit: 4096,
  },
});
