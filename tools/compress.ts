// Brotli and gzip copies of a built folder's text files, written beside each one (`app.js.br`,
// `app.js.gz`), so the servers send them as they are (the console's @fastify/static with
// `preCompressed`, the web player's src/web-player/static-server.ts) instead of compressing on
// every request or sending the bytes uncompressed.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Text, which compresses; images, fonts and sounds are compressed already. */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.map', '.wasm']);

/** The copies' extensions, as the servers look for them. */
export const ENCODED_EXTENSIONS = { br: '.br', gzip: '.gz' } as const;

export interface Compressed {
  files: number;
  bytes: number;
  br: number;
  gzip: number;
}

/** The best of each, since it is paid once at build and saved on every load. */
const encoders = {
  br: (data: Buffer) =>
    brotli(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
  gzip: (data: Buffer) => gzipped(data, { level: constants.Z_BEST_COMPRESSION }),
};

/**
 * Writes the copies of every compressible file under `folder`, each only where it is smaller than
 * the file (a server without it sends the next encoding, or the file). zlib compresses on libuv's
 * threads, so the files are compressed side by side while the rest of the build goes on.
 */
export async function compressFolder(folder: string): Promise<Compressed> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && COMPRESSIBLE.has(extname(entry.name).toLowerCase()))
    .map((entry) => join(entry.parentPath, entry.name));
  const total: Compressed = { files: files.length, bytes: 0, br: 0, gzip: 0 };
  await Promise.all(
    files.map(async (file) => {
      const data = await readFile(file);
      total.bytes += data.length;
      await Promise.all(
        (['br', 'gzip'] as const).map(async (encoding) => {
          const encoded = await encoders[encoding](data);
          const kept = encoded.length < data.length;
          total[encoding] += kept ? encoded.length : data.length;
          if (kept) await writeFile(`${file}${ENCODED_EXTENSIONS[encoding]}`, encoded);
        }),
      );
    }),
  );
  return total;
}
