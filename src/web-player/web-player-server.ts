import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { callHost, type BridgeHost } from '../agent/bridge-host';
import { CACHE_FILE_NAME } from '../agent/node-cache-files';
import { NO_RENDERER } from '../agent/screen-status';
import { parseTilePath, type TileStore } from '../agent/tile-cache';
import { SCREENSHOT_BASE64_MAX } from '../shared/command';
import { customFramePolicy } from '../shared/custom-frame';
import { describeIssues } from '../shared/issues';
import type { BridgeMessage } from '../shared/bridge';
import {
  METRICS_QUERY,
  WEB_BRIDGE_PATH,
  callFrameSchema,
  type AgentFrame,
  type CallFrame,
} from '../shared/web-bridge-protocol';
import { folderHandler, sendFile } from './static-server';
import { serveReleases, VERSION_FRAME_ANCESTORS } from './version-routes';
import { labelOfPage, type WebReleases } from './web-releases';

export interface WebPlayerServerOptions {
  host: BridgeHost;
  /** The built renderer (dist/renderer), served at `/` when there are no `releases`. */
  rendererDir: string;
  /**
   * The versions of the renderer and their swaps (web-releases.ts): each version is served under
   * `/v/<label>/` (`/` sends the browser to the one on screen), and the bridge tells their pages apart.
   */
  releases?: WebReleases;
  /** The agent's media cache, served under /media/. */
  mediaDir: string;
  /** The agent's map tiles, served under /tiles/{z}/{x}/{y} (WEB_TILE_URL_TEMPLATE). */
  tiles?: TileStore;
  /** 0 (the default) lets the OS pick one. */
  port?: number;
  hostname?: string;
  log?: { warn(message: string): void };
}

export interface WebPlayerServer {
  url: string;
  close(): Promise<void>;
}

/** The player's Content-Security-Policy; framed by nothing, or (a version's pages) by the page at the top. */
const playerPolicy = (frameAncestors: string) =>
  [
    "default-src 'self'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    "connect-src 'self'",
    "font-src 'self' data:",
    // Web pages (the iframe widget, web items): any http(s) page, in a sandboxed frame; 'self' for
    // the custom widget's host pages (src/shared/custom-frame.ts).
    "frame-src 'self' http: https:",
    "object-src 'none'",
    "base-uri 'none'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');

/** A version's pages: framed during a swap by the page at the top (version-routes.ts). */
const VERSION_POLICY = playerPolicy(VERSION_FRAME_ANCESTORS);

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': playerPolicy("'none'"),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** Media cache names: a hex digest and an optional short extension, so never a path. */
const MEDIA_PREFIX = '/media/';
/** Where the page loads map tiles from (the agent's `tileUrlTemplate` in the web player). */
export const WEB_TILE_URL_TEMPLATE = '/tiles/{z}/{x}/{y}';
/**
 * Renderer frames are small (a log entry is at most 4096 characters, before JSON escaping), but
 * for a screenshot, the page's PNG in base64 (the `screenshot` command), and its envelope.
 */
const MAX_FRAME_BYTES = SCREENSHOT_BASE64_MAX + 64 * 1024;
/** A page that stops reading is dropped rather than buffered without end; it reconnects. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];
const WILDCARD_HOSTS = new Set(['', '0.0.0.0', '::']);

function urlHost(hostname: string): string {
  return hostname.includes(':') ? `[${hostname}]` : hostname;
}

/**
 * The origins a page of this server can have. Checked against the Origin header of the bridge
 * socket, so another web page (even one that rebinds its DNS name to this address) cannot drive
 * the player: names other than loopback are refused, the machine's own addresses are not.
 */
function ownOrigins(hostname: string, port: number): Set<string> {
  const hosts = new Set<string>();
  if (WILDCARD_HOSTS.has(hostname)) {
    for (const addresses of Object.values(networkInterfaces())) {
      for (const { address } of addresses ?? []) hosts.add(urlHost(address));
    }
    for (const host of LOOPBACK_HOSTS) hosts.add(host);
  } else if (LOOPBACK_HOSTS.includes(urlHost(hostname))) {
    for (const host of LOOPBACK_HOSTS) hosts.add(host);
  } else {
    hosts.add(urlHost(hostname.toLowerCase()));
  }
  // Browsers leave the default port out of an origin.
  const suffix = port === 80 ? '' : `:${port}`;
  return new Set([...hosts].map((host) => `http://${host}${suffix}`));
}

function refuseUpgrade(socket: Duplex, status: string): void {
  socket.once('finish', () => socket.destroy());
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/** The request's path, or null for a request target that is not one ("//", say). */
function pathOf(request: IncomingMessage): string | null {
  try {
    return new URL(request.url ?? '/', 'http://localhost').pathname;
  } catch {
    return null;
  }
}

/**
 * A message's frames, serialised once for every page that takes them: a `metricsBatch` as it is
 * for a page that takes batches, as one `metrics` message per flow for a page from before them.
 */
function framesOf(message: BridgeMessage): (batching: boolean) => string[] {
  const frame = (one: BridgeMessage) =>
    JSON.stringify({ kind: 'message', message: one } satisfies AgentFrame);
  if (message.kind !== 'metricsBatch') {
    const only = [frame(message)];
    return () => only;
  }
  let batch: string[] | undefined;
  let each: string[] | undefined;
  return (batching) =>
    batching
      ? (batch ??= [frame(message)])
      : (each ??= message.flows.map((flow) => frame({ kind: 'metrics', ...flow })));
}

function text(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

/** A map tile from the agent's tile cache, or its failure (404: none here; 502: the service failed). */
async function sendTile(
  tiles: TileStore,
  { z, x, y }: { z: number; x: number; y: number },
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const tile = await tiles.tile(z, x, y);
  if (!tile.ok) {
    response.writeHead(tile.status, { 'content-type': 'text/plain; charset=utf-8' }).end(tile.message);
    return;
  }
  response.writeHead(200, {
    'content-type': tile.contentType,
    'content-length': tile.body.length,
    'cache-control': 'no-cache',
  });
  response.end(request.method === 'HEAD' ? undefined : tile.body);
}

/**
 * The web player: the renderer, the media cache and the bridge contract over a WebSocket at
 * /bridge, on one HTTP server, so any browser can be a Wallboard screen.
 */
export async function startWebPlayerServer(options: WebPlayerServerOptions): Promise<WebPlayerServer> {
  const { host, rendererDir, mediaDir, releases, port = 0, hostname = '127.0.0.1', log = console } = options;
  const serveRenderer = folderHandler(rendererDir);

  const server = createServer((request, response) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const pathname = pathOf(request);
    if (pathname === null) {
      response.writeHead(400).end();
      return;
    }
    const tile = options.tiles ? parseTilePath(pathname) : null;
    if (tile && options.tiles) {
      sendTile(options.tiles, tile, request, response).catch((error: unknown) => {
        log.warn(`web player: could not serve a map tile: ${String(error)}`);
        if (!response.headersSent) response.writeHead(500);
        response.end();
      });
      return;
    }
    if (!pathname.startsWith(MEDIA_PREFIX)) {
      // A custom widget's host page runs the widget's inline code under a policy of its own.
      const framePolicy = customFramePolicy(pathname);
      if (framePolicy) response.setHeader('content-security-policy', framePolicy);
      if (!releases) {
        serveRenderer(request, response);
        return;
      }
      try {
        serveReleases(releases, VERSION_POLICY, pathname, request, response);
      } catch {
        // A path that does not decode (a stray %).
        if (!response.headersSent) response.writeHead(400);
        response.end();
      }
      return;
    }
    const name = pathname.slice(MEDIA_PREFIX.length);
    if (!CACHE_FILE_NAME.test(name)) {
      response.writeHead(404).end();
      return;
    }
    sendFile(request, response, join(mediaDir, name)).catch((error: unknown) => {
      log.warn(`web player: could not serve media ${name}: ${String(error)}`);
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });

  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });

  /** Sends a frame, or its JSON when it goes to several pages and is serialised once. */
  const send = (socket: WebSocket, frame: AgentFrame | string): void => {
    if (socket.readyState !== WebSocket.OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      log.warn('web player: dropped a page that stopped reading the bridge');
      socket.terminate();
      return;
    }
    socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  };

  /** The version label of each socket's page (`?page=/v/<label>/`), null for a page not under one. */
  const labels = new WeakMap<WebSocket, string | null>();
  /** Pages that take `metricsBatch` (they say so: `?metrics=batch`); a version before it takes `metrics`. */
  const batching = new WeakSet<WebSocket>();

  /**
   * A tell from a page that is not the one on screen: the version on trial, or one on its way out
   * after a swap. Only the page on screen plays, fails and answers screenshots; the trial's first
   * report of what it shows is what puts it on screen, and counts from then on.
   */
  const tellAside = (label: string | null, frame: CallFrame): void => {
    if (frame.method === 'reportShowing' && label !== null && releases?.trialShowing(label, frame.request)) {
      host.reportShowing(frame.request);
    } else if (frame.method === 'log') {
      const message = `(version ${label ?? '?'}, not on screen) ${frame.request.message}`;
      host.log({ level: frame.request.level, message: message.slice(0, 4096) });
    }
  };

  const receive = (socket: WebSocket, data: RawData, isBinary: boolean): void => {
    let json: unknown;
    try {
      if (isBinary) throw new Error('binary frame');
      json = JSON.parse(text(data));
    } catch {
      log.warn('web player: ignored a bridge frame that is not JSON text');
      return;
    }
    // The one check of what a page sends: the frame against the schemas of its method.
    const parsed = callFrameSchema.safeParse(json);
    if (!parsed.success) {
      log.warn(`web player: ignored an invalid bridge frame: ${describeIssues(parsed.error)}`);
      return;
    }
    const frame = parsed.data;
    const label = labels.get(socket) ?? null;
    if (releases && releases.roleOf(label) !== 'live' && !('request_id' in frame)) {
      tellAside(label, frame);
      return;
    }
    const failed = (error: unknown) =>
      log.warn(`web player: the bridge host failed on a ${frame.method} call: ${String(error)}`);
    try {
      if ('request_id' in frame) {
        // Some answers take a while (a page's framing is asked of the network): awaited.
        Promise.resolve(callHost(host, frame.method, frame.request)).then(
          (answer) => send(socket, { kind: 'answer', request_id: frame.request_id, answer }),
          failed,
        );
      } else {
        callHost(host, frame.method, frame.request);
      }
    } catch (error) {
      failed(error);
    }
  };

  sockets.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    const search = new URL(request.url ?? '/', 'http://localhost').searchParams;
    const page = search.get('page');
    labels.set(socket, labelOfPage(page));
    if (search.get(METRICS_QUERY.name) === METRICS_QUERY.batch) batching.add(socket);
    socket.on('message', (data, isBinary) => receive(socket, data, isBinary));
    socket.on('error', (error) => log.warn(`web player: bridge socket: ${error.message}`));
    // The server's own tracking has dropped the socket by now. With no page left nothing is on
    // screen: the heartbeats say so until a page attaches and reports what it shows.
    socket.on('close', () => {
      if (sockets.clients.size === 0) host.reportShowing({ showing: NO_RENDERER });
    });
  });

  // One subscription for every page, and each message serialised once for all of them.
  // A page not on screen (on trial, or on its way out) is told what it needs to draw, and nothing
  // that sounds, shows a face or asks for an answer: the page on screen does those, once.
  const unsubscribe = host.onMessage((message) => {
    const frames = framesOf(message);
    const toAll = message.kind === 'state' || message.kind === 'metricsBatch';
    for (const socket of sockets.clients) {
      if (toAll || !releases || releases.roleOf(labels.get(socket) ?? null) === 'live') {
        for (const frame of frames(batching.has(socket))) send(socket, frame);
      }
    }
  });

  let boundPort = port;
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const onSocketError = () => socket.destroy();
    socket.on('error', onSocketError);
    if (pathOf(request) !== WEB_BRIDGE_PATH) {
      refuseUpgrade(socket, '404 Not Found');
      return;
    }
    const origin = request.headers.origin;
    // No Origin means no browser, so no page of someone else's: local tools may connect.
    if (origin !== undefined && !ownOrigins(hostname, boundPort).has(origin)) {
      log.warn(`web player: refused a bridge connection from ${origin}`);
      refuseUpgrade(socket, '403 Forbidden');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (webSocket) => {
      socket.removeListener('error', onSocketError);
      sockets.emit('connection', webSocket, request);
    });
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, hostname, resolve);
    });
  } catch (error) {
    unsubscribe();
    throw error;
  }
  boundPort = (server.address() as AddressInfo).port;

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    unsubscribe();
    releases?.close();
    for (const socket of sockets.clients) socket.terminate();
    sockets.close();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    return closed;
  };
  return {
    url: `http://${urlHost(hostname)}:${boundPort}/`,
    close: () => (closing ??= close()),
  };
}
