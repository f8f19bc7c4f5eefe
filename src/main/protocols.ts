import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { CustomScheme } from 'electron';
import { CACHE_FILE_NAME } from '../agent/node-cache-files';
import { parseTilePath, type TileStore } from '../agent/tile-cache';
import { parseRange } from '../shared/byte-range';
import { customFramePolicy } from '../shared/custom-frame';
import { contentTypeOf } from '../shared/media-types';

/** The renderer is served from app://wallboard/, never from file://. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'wallboard';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

/** Cached media by file name; the renderer's CSP allows this scheme for img and media only. */
export const MEDIA_SCHEME = 'wallboard-media';
export const MEDIA_HOST = 'cache';
export const MEDIA_BASE_URL = `${MEDIA_SCHEME}://${MEDIA_HOST}/`;
/** Map tiles from the screen's tile cache (src/agent/tile-cache.ts), on the same scheme as media. */
export const TILES_HOST = 'tiles';
export const TILE_URL_TEMPLATE = `${MEDIA_SCHEME}://${TILES_HOST}/{z}/{x}/{y}`;

/** The names the media cache gives its files (see src/agent/node-cache-files.ts): never a path. */

/**
 * Registered before `ready`. Standard and secure give app:// a real origin and a secure context
 * (ES modules, no mixed-content downgrade); stream lets <video> read media in ranges. Neither
 * scheme bypasses the CSP.
 */
export const PRIVILEGED_SCHEMES: CustomScheme[] = [
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  { scheme: MEDIA_SCHEME, privileges: { standard: true, secure: true, stream: true } },
];

/**
 * Sent with every app:// answer (and by the session with every other one, see session-security.ts).
 * The same policy as renderer/index.html's meta tag, plus what only a header can say.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  // Scripts from the bundle's assets only: narrower than 'self', which would also allow any other
  // file of the origin to run as a script.
  `script-src ${APP_ORIGIN}/assets/`,
  `img-src 'self' data: blob: ${MEDIA_SCHEME}:`,
  `media-src 'self' blob: ${MEDIA_SCHEME}:`,
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "font-src 'self' data:",
  // Web pages (the iframe widget, web items the shell does not draw): any http(s) page, sandboxed;
  // 'self' for the custom widget's host pages (src/shared/custom-frame.ts).
  "frame-src 'self' http: https:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

export type ProtocolHandler = (request: Request) => Promise<Response>;

function status(code: number, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: code, headers: { ...SECURITY_HEADERS, ...headers } });
}

/** A regular file as a Response, honouring one byte range (video seeks with them). */
async function fileResponse(
  request: Request,
  file: string,
  policy: string = CONTENT_SECURITY_POLICY,
): Promise<Response> {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return status(404);
  const range = parseRange(request.headers.get('range'), info.size);
  if (range === 'unsatisfiable') {
    return status(416, { 'content-range': `bytes */${info.size}`, 'accept-ranges': 'bytes' });
  }
  const { start, end } = range ?? { start: 0, end: info.size - 1 };
  const headers: Record<string, string> = {
    ...SECURITY_HEADERS,
    'content-security-policy': policy,
    'content-type': contentTypeOf(file),
    'content-length': String(end - start + 1),
    'accept-ranges': 'bytes',
    'cache-control': 'no-cache',
  };
  if (range) headers['content-range'] = `bytes ${start}-${end}/${info.size}`;
  const empty = request.method === 'HEAD' || info.size === 0;
  const body = empty ? null : (Readable.toWeb(createReadStream(file, { start, end })) as ReadableStream);
  return new Response(body, { status: range ? 206 : 200, headers });
}

function refuseMethod(request: Request): Response | null {
  return request.method === 'GET' || request.method === 'HEAD' ? null : status(405, { allow: 'GET, HEAD' });
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** app://wallboard/<path>: the files of the built renderer, index.html for "/", nothing outside. */
export function createAppHandler(rendererDir: string): ProtocolHandler {
  const root = normalize(rendererDir + sep);
  return async (request) => {
    const refused = refuseMethod(request);
    if (refused) return refused;
    const url = parse(request.url);
    if (url?.host !== APP_HOST) return status(404);
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      return status(400);
    }
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(root) || file.includes('\0')) return status(403);
    // A custom widget's host page runs the widget's inline code under a policy of its own.
    return fileResponse(request, file, customFramePolicy(path) ?? CONTENT_SECURITY_POLICY);
  };
}

/** wallboard-media://tiles/<z>/<x>/<y>: a map tile, from the tile cache (which may fetch it). */
async function tileResponse(tiles: TileStore, path: string): Promise<Response> {
  const at = parseTilePath(`/tiles${path}`);
  if (!at) return status(404);
  const tile = await tiles.tile(at.z, at.x, at.y);
  if (!tile.ok) {
    return new Response(tile.message, {
      status: tile.status,
      headers: { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' },
    });
  }
  return new Response(new Uint8Array(tile.body), {
    headers: { ...SECURITY_HEADERS, 'content-type': tile.contentType, 'cache-control': 'no-cache' },
  });
}

/**
 * wallboard-media://cache/<name>: one file of the media cache, by the name the cache gave it;
 * wallboard-media://tiles/<z>/<x>/<y>: a map tile.
 */
export function createMediaHandler(cacheDir: string, tiles?: TileStore): ProtocolHandler {
  return async (request) => {
    const refused = refuseMethod(request);
    if (refused) return refused;
    const url = parse(request.url);
    if (url?.host === TILES_HOST && tiles) return tileResponse(tiles, url.pathname);
    const name = url?.pathname.slice(1) ?? '';
    if (url?.host !== MEDIA_HOST || !CACHE_FILE_NAME.test(name)) return status(404);
    return fileResponse(request, join(cacheDir, name));
  };
}
