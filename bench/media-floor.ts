// The floor of bench/media: a bare Node static server in its own process, bundled and run by plain
// Node as the built service is (bench/spawned.ts: port 0, a "listening on" line), serving one
// file as a static server does: its size read per request (stat), the whole file or the one byte
// range asked for (206; 416 past its end), from a read stream. No token check, no store.
// Usage: node <its bundle> --file <path> [--port 0]
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '0' }, file: { type: 'string' } },
});
const file = values.file;
if (!file) throw new Error('--file is required');

const server = createServer((request, response) => {
  void stat(file).then(({ size }) => {
    const headers = { 'content-type': 'video/mp4', 'accept-ranges': 'bytes' };
    const asked = /^bytes=(\d+)-(\d*)$/.exec(request.headers.range ?? '');
    if (!asked) {
      response.writeHead(200, { ...headers, 'content-length': size });
      createReadStream(file).pipe(response);
      return;
    }
    const start = Number(asked[1]);
    const end = Math.min(asked[2] ? Number(asked[2]) : size - 1, size - 1);
    if (start > end) {
      response.writeHead(416, { 'content-range': `bytes */${size}` }).end();
      return;
    }
    response.writeHead(206, {
      ...headers,
      'content-range': `bytes ${start}-${end}/${size}`,
      'content-length': end - start + 1,
    });
    createReadStream(file, { start, end }).pipe(response);
  });
});
server.listen(Number(values.port), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`Media floor listening on http://127.0.0.1:${port}\n`);
});
