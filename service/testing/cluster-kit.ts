// Real service nodes on one PostgreSQL database behind HAProxy or nginx on loopback, for
// service/cluster.test.ts, service/cluster-nginx.test.ts and bench/fleet: the deployment of
// docs/deployment.md, on one machine.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io as connect, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, RealtimeEvent, ServerToClientEvents } from '../../src/shared/events';
import { spawnService, type ServiceFrom, type ServiceProcess } from '../service-process';
import { createTestDatabase, TEST_POSTGRES_URL } from '../test-support';
import { multipart } from './multipart';

export const HAPROXY = '/usr/sbin/haproxy';
export const haproxyInstalled = existsSync(HAPROXY);

/** A free port on loopback (the nodes' ports are in HAProxy's configuration before they start). */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

/**
 * deploy/haproxy.cfg with loopback addresses: the sample's own settings, its frontend bound to
 * `port`, its servers the nodes'. `balance` may differ from the sample's (a test pins devices on
 * the first node with `first`), and `maxconn` fits this machine's limit of open files (HAProxy
 * needs two per connection).
 */
export async function haproxyConfig(
  port: number,
  nodePorts: readonly number[],
  { balance, maxconn = 1000 }: { balance?: string; maxconn?: number } = {},
): Promise<string> {
  const sample = await readFile(new URL('../../deploy/haproxy.cfg', import.meta.url), 'utf8');
  const servers = nodePorts
    .map((nodePort, n) => `    server node${n + 1} 127.0.0.1:${nodePort} check`)
    .join('\n');
  return sample
    .replace(/^\s*bind .*$/m, `    bind 127.0.0.1:${port}`)
    .replace(/(^\s*server .*\n?)+/m, `${servers}\n`)
    .replace(/^\s*balance .*$/m, balance ? `    balance ${balance}` : '$&')
    .replace(/^\s*maxconn .*$/m, `    maxconn ${maxconn}`);
}

export interface Proxy {
  url: string;
  stop(): Promise<void>;
}

/** HAProxy in the foreground on `config`, once it accepts connections. */
export function startHaproxy(config: string, port: number): Promise<Proxy> {
  return startProxy(
    'haproxy',
    port,
    () => ({ 'haproxy.cfg': config }),
    (dir) => [HAPROXY, '-db', '-f', join(dir, 'haproxy.cfg')],
  );
}

export const NGINX = '/usr/sbin/nginx';
export const nginxInstalled = existsSync(NGINX);

/**
 * deploy/nginx.conf with loopback addresses: its server listening on `port`, its upstream the
 * nodes' (each with the sample's own parameters).
 */
export async function nginxConfig(port: number, nodePorts: readonly number[]): Promise<string> {
  const sample = await readFile(new URL('../../deploy/nginx.conf', import.meta.url), 'utf8');
  const parameters = /^\s*server \S+:\d+(.*);$/m.exec(sample)?.[1] ?? '';
  const servers = nodePorts.map((nodePort) => `    server 127.0.0.1:${nodePort}${parameters};`).join('\n');
  return sample
    .replace(/^(\s*)listen .*$/m, `$1listen 127.0.0.1:${port};`)
    .replace(/(^\s*server \S+:\d+.*\n?)+/m, `${servers}\n`);
}

/**
 * nginx in the foreground on `site` (the http-level part, as deploy/nginx.conf), inside a main
 * configuration of its own that keeps every file it writes in a temporary folder.
 */
export function startNginx(site: string, port: number): Promise<Proxy> {
  const main = (dir: string) =>
    [
      // As root, nginx's workers would run as nobody, who cannot write in the folder.
      process.getuid?.() === 0 ? 'user root root;' : '',
      'worker_processes 1;',
      'daemon off;',
      `pid ${dir}/nginx.pid;`,
      'error_log stderr warn;',
      'events { worker_connections 1024; }',
      'http {',
      '  access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
        (kind) => `  ${kind}_temp_path ${dir}/${kind};`,
      ),
      `  include ${dir}/wallboard.conf;`,
      '}',
    ].join('\n');
  return startProxy(
    'nginx',
    port,
    (dir) => ({ 'nginx.conf': main(dir), 'wallboard.conf': site }),
    (dir) => [NGINX, '-p', dir, '-e', 'stderr', '-c', join(dir, 'nginx.conf')],
  );
}

/**
 * `command` in the foreground, with its `files` in a temporary folder of its own (both given
 * that folder), once `port` accepts connections.
 */
async function startProxy(
  name: string,
  port: number,
  files: (dir: string) => Record<string, string>,
  command: (dir: string) => string[],
): Promise<Proxy> {
  const dir = await mkdtemp(join(tmpdir(), `wallboard-${name}-`));
  for (const [file, text] of Object.entries(files(dir))) await writeFile(join(dir, file), text);
  const [program = name, ...args] = command(dir);
  const child: ChildProcess = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (let tries = 0; ; tries += 1) {
    if (child.exitCode !== null) throw new Error(`${name} exited: ${output}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection(port, '127.0.0.1', () => resolve(true)).on('error', () =>
        resolve(false),
      );
      socket.unref();
      setTimeout(() => socket.destroy(), 100).unref();
    });
    if (open) break;
    if (tries > 100) throw new Error(`${name} did not listen on ${port}: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A service node on `port` of the database, with the admin token of the environment. */
export function startNode(
  databaseUrl: string,
  port: number,
  adminToken: string,
  extra: readonly string[] = [],
  from: ServiceFrom = 'source',
): Promise<ServiceProcess> {
  return spawnService(
    [
      '--database-url',
      databaseUrl,
      '--port',
      String(port),
      '--no-mdns',
      '--trust-proxy',
      'loopback',
      ...extra,
    ],
    { WALLBOARD_ADMIN_TOKEN: adminToken },
    from,
  );
}

/** Waits until `url`/health answers 200 (HAProxy marks a node up after its checks pass). */
export async function healthy(url: string, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    const status = await fetch(`${url}/health`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() - started > timeoutMs)
      throw new Error(`${url}/health did not answer 200 (last ${status})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface ProxiedNodes {
  nodeA: ServiceProcess;
  nodeB: ServiceProcess;
  proxy: Proxy;
  /** The proxy and the nodes stopped, the database dropped. */
  stop(): Promise<void>;
}

/**
 * A fresh database, nodes A and B on it with the admin `token` and `extra` options, and the proxy
 * `startProxy` starts in front of them, once it finds them healthy. What did start is stopped
 * again when a later step fails.
 */
export async function nodesBehind(
  startProxy: (port: number, nodePorts: readonly number[]) => Promise<Proxy>,
  token: string,
  extra: readonly string[],
): Promise<ProxiedNodes> {
  const database = await createTestDatabase(TEST_POSTGRES_URL ?? '');
  const nodes: ServiceProcess[] = [];
  let proxy: Proxy | undefined;
  const stop = async () => {
    await proxy?.stop();
    await Promise.all(nodes.map((node) => node.stop('SIGKILL')));
    await database.drop();
  };
  try {
    const [portA, portB, portProxy] = [await freePort(), await freePort(), await freePort()];
    // One after the other: the second finds the migrations applied (they also take a lock).
    const nodeA = await startNode(database.url, portA, token, extra);
    nodes.push(nodeA);
    const nodeB = await startNode(database.url, portB, token, extra);
    nodes.push(nodeB);
    proxy = await startProxy(portProxy, [portA, portB]);
    await healthy(proxy.url);
    return { nodeA, nodeB, proxy, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A JSON request with `token` to `base`: the answer's body, or an error naming its status. */
export const apiWith =
  (token: string) =>
  async <T>(base: string, method: string, path: string, body?: unknown): Promise<T> => {
    const authorization = `Bearer ${token}`;
    const response = await fetch(`${base}${path}`, {
      method,
      ...(body === undefined
        ? { headers: { authorization } }
        : { headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (response.status === 204 ? undefined : await response.json()) as T;
  };

/**
 * A PNG `file` uploaded to the media library through `uploadTo`, then read back through `readFrom`:
 * the upload's status, and the bytes read (none when the upload failed).
 */
export async function mediaRoundTrip(
  uploadTo: string,
  readFrom: string,
  token: string,
  file: Buffer,
): Promise<{ status: number; read: Buffer | null }> {
  const authorization = `Bearer ${token}`;
  const body = multipart([{ name: 'file', filename: 'media.png', type: 'image/png', content: file }]);
  const upload = await fetch(`${uploadTo}/media`, {
    method: 'POST',
    headers: { ...body.headers, authorization },
    body: new Uint8Array(body.payload),
  });
  if (upload.status !== 201) return { status: upload.status, read: null };
  const { id } = (await upload.json()) as { id: string };
  const read = await fetch(`${readFrom}/media/${id}/content`, { headers: { authorization } });
  return { status: upload.status, read: Buffer.from(await read.arrayBuffer()) };
}

/**
 * Screens `tags`, made through `base` with `token`, playing a playlist of one board (a screen
 * hears its channel's notifications through its playlist); the default channel's id.
 */
export async function screensPlaying(base: string, token: string, tags: readonly string[]): Promise<string> {
  const api = apiWith(token);
  const channel = (await api<{ id: string }[]>(base, 'GET', '/channels'))[0]?.id ?? '';
  const board = await api<{ id: string }>(base, 'POST', '/boards', { name: 'Ops' });
  const items = [{ type: 'board', board_id: board.id, duration: 10 }];
  const playlist = await api<{ id: string }>(base, 'POST', '/playlists', { name: 'Loop', items });
  for (const tag of tags) await api(base, 'POST', '/devices', { tag, playlist_id: playlist.id });
  return channel;
}

export interface Screen {
  socket: Socket<ServerToClientEvents, ClientToServerEvents>;
  events: RealtimeEvent[];
  /** When each connection had caught up: its hello answered, the events it missed taken. */
  connections: number[];
  /** The titles of the notifications it heard, in turn. */
  titles(): (string | null)[];
}

/**
 * A screen as the agent is to the service, connected through `url`: it says hello with the last
 * event it saw at every connection, and keeps every event once.
 */
export function screenThrough(url: string, token: string, tag: string): Screen {
  const events: RealtimeEvent[] = [];
  let last: number | null = null;
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = connect(url, {
    transports: ['websocket'],
    auth: { token },
    reconnectionDelay: 500,
    reconnectionDelayMax: 1000,
  });
  const take = (event: RealtimeEvent) => {
    if (events.some((seen) => seen.id === event.id)) return;
    events.push(event);
    last = Math.max(last ?? 0, event.id);
  };
  socket.on('event', take);
  const connections: number[] = [];
  // Counted once caught up: an event posted after a connection counted at `connect` could come
  // live before the hello's answer brings the ones missed, and the titles would be out of turn.
  socket.on('connect', () => {
    void socket.emitWithAck('hello', { device_tag: tag, last_event_id: last }).then((ack) => {
      for (const event of ack.events) take(event);
      last = Math.max(last ?? 0, ack.last_event_id);
      connections.push(Date.now());
    });
  });
  return {
    socket,
    events,
    connections,
    titles: () => events.flatMap((e) => (e.type === 'notification.created' ? [e.notification.title] : [])),
  };
}
