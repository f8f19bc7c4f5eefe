import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize, sep } from 'node:path';
import { pipeline } from 'node:stream';
import { parseRange } from '../shared/byte-range';
import { contentTypeOf } from '../shared/media-types';

export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

/** The copies the build writes beside a file (tools/compress.ts), in the order they are preferred. */
const ENCODINGS = [
  { name: 'br', extension: '.br' },
  { name: 'gzip', extension: '.gz' },
] as const;
type Encoding = (typeof ENCODINGS)[number];

/** Vite's output names its files by their content: a changed file is a new name. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The encodings of ENCODINGS an Accept-Encoding header (RFC 9110 §12.5.3) takes, most wanted
 * first (ties in ENCODINGS' order); none without the header, and none it gives q=0.
 */
export function acceptedEncodings(header: string | undefined): Encoding[] {
  const weights = new Map<string, number>();
  for (const item of header?.split(',') ?? []) {
    const [coding = '', ...parameters] = item.split(';').map((part) => part.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (coding !== '' && !Number.isNaN(weight)) weights.set(coding, weight);
  }
  const weightOf = (name: string) => weights.get(name) ?? weights.get('*') ?? 0;
  return ENCODINGS.filter(({ name }) => weightOf(name) > 0).sort(
    (a, b) => weightOf(b.name) - weightOf(a.name),
  );
}

export interface SendOptions {
  cacheControl?: string;
  /**
   * The encoded copies to send in place of the file, in order, the first one there; when given
   * (even empty), the answer varies by Accept-Encoding.
   */
  encodings?: readonly Encoding[];
}

/** Whether an If-None-Match header names `etag` (weak comparison, as for a GET). */
function matches(header: string | undefined, etag: string): boolean {
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return (
    header !== undefined &&
    (header.trim() === '*' || header.split(',').some((tag) => bare(tag) === bare(etag)))
  );
}

/**
 * Answers with one regular file (or its first encoded copy there), or 404. Honours a single byte
 * range, since <video> seeks with them and some browsers will not play media from a server that
 * ignores them; a range of an encoded copy is of its bytes (RFC 9110 §14.1). An ETag per copy,
 * so a page revalidates the copy it has.
 */
export async function sendFile(
  request: IncomingMessage,
  response: ServerResponse,
  file: string,
  options: SendOptions = {},
): Promise<void> {
  const original = await stat(file).catch(() => null);
  if (!original?.isFile()) {
    response.writeHead(404).end();
    return;
  }
  let sent = { path: file, info: original, encoding: '' };
  for (const { name, extension } of options.encodings ?? []) {
    const info = await stat(file + extension).catch(() => null);
    if (info?.isFile()) {
      sent = { path: file + extension, info, encoding: name };
      break;
    }
  }
  const { info } = sent;
  // Strong, as nginx's: the files here (the build's, the media cache's) are written whole, never
  // changed in place.
  const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
  const headers = {
    'content-type': contentTypeOf(file),
    'accept-ranges': 'bytes',
    etag,
    ...(options.cacheControl ? { 'cache-control': options.cacheControl } : {}),
    ...(options.encodings ? { vary: 'accept-encoding' } : {}),
    ...(sent.encoding ? { 'content-encoding': sent.encoding } : {}),
  };
  if (matches(request.headers['if-none-match'], etag)) {
    response.writeHead(304, headers).end();
    return;
  }
  // A range of another version (If-Range, compared strongly) is answered with the whole of this one.
  const ifRange = request.headers['if-range'];
  const asked = ifRange === undefined || ifRange === etag ? request.headers.range : undefined;
  const range = parseRange(asked, info.size);
  if (range === 'unsatisfiable') {
    response.writeHead(416, { ...headers, 'content-range': `bytes */${info.size}` }).end();
    return;
  }
  const { start, end } = range ?? { start: 0, end: info.size - 1 };
  response.writeHead(range ? 206 : 200, {
    ...headers,
    'content-length': String(end - start + 1),
    ...(range ? { 'content-range': `bytes ${start}-${end}/${info.size}` } : {}),
  });
  if (request.method === 'HEAD' || info.size === 0) {
    response.end();
    return;
  }
  // pipeline, not pipe: a client that goes away must not leave the file open.
  pipeline(createReadStream(sent.path, { start, end }), response, () => undefined);
}

/**
 * Answers with the file at `path` (decoded, `/`-rooted) under `folder`, index.html for a folder;
 * nothing outside it. In the encoding the request takes best of those the build wrote; those
 * under assets/ (named by their content) cached for good, the pages revalidated on every load.
 */
export function sendFromFolder(
  folder: string,
  path: string,
  request: IncomingMessage,
  response: ServerResponse,
): void {
  const root = normalize(folder + sep);
  const assets = join(root, 'assets') + sep;
  const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
  if (!file.startsWith(root) || file.includes('\0')) {
    response.writeHead(403).end();
    return;
  }
  sendFile(request, response, file, {
    cacheControl: file.startsWith(assets) ? IMMUTABLE : 'no-cache',
    encodings: acceptedEncodings(request.headers['accept-encoding']),
  }).catch(() => {
    if (!response.headersSent) response.writeHead(500);
    response.end();
  });
}

/** Serves the files under `folder` (sendFromFolder) by the request's path. */
export function folderHandler(folder: string): RequestHandler {
  return (request, response) => {
    let path: string;
    try {
      path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    } catch {
      response.writeHead(400).end();
      return;
    }
    sendFromFolder(folder, path, request, response);
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
