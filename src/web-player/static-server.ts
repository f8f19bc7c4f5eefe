import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize, sep } from 'node:path';
import { pipeline } from 'node:stream';
import { parseRange } from '../shared/byte-range';
import { contentTypeOf } from '../shared/media-types';

export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * Answers with one regular file, or 404. Honours a single byte range, since <video> seeks with
 * them and some browsers will not play media from a server that ignores them.
 */
export async function sendFile(
  request: IncomingMessage,
  response: ServerResponse,
  file: string,
  contentType = contentTypeOf(file),
): Promise<void> {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) {
    response.writeHead(404).end();
    return;
  }
  const range = parseRange(request.headers.range, info.size);
  if (range === 'unsatisfiable') {
    response.writeHead(416, { 'content-range': `bytes */${info.size}`, 'accept-ranges': 'bytes' }).end();
    return;
  }
  const { start, end } = range ?? { start: 0, end: info.size - 1 };
  response.writeHead(range ? 206 : 200, {
    'content-type': contentType,
    'content-length': String(end - start + 1),
    'accept-ranges': 'bytes',
    ...(range ? { 'content-range': `bytes ${start}-${end}/${info.size}` } : {}),
  });
  if (request.method === 'HEAD' || info.size === 0) {
    response.end();
    return;
  }
  // pipeline, not pipe: a client that goes away must not leave the file open.
  pipeline(createReadStream(file, { start, end }), response, () => undefined);
}

/** Serves the files under `folder`, with index.html for "/"; nothing outside it. */
export function folderHandler(folder: string): RequestHandler {
  const root = normalize(folder + sep);
  return (request, response) => {
    let path: string;
    try {
      path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    } catch {
      response.writeHead(400).end();
      return;
    }
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(root) || file.includes('\0')) {
      response.writeHead(403).end();
      return;
    }
    sendFile(request, response, file).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  };
}

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

/** Serves a built folder; port 0 lets the OS pick one, so parallel runs never collide. */
export async function serveFolder(folder: string, port = 0, host = '127.0.0.1'): Promise<StaticServer> {
  const server: Server = createServer(folderHandler(folder));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
