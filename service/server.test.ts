import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect as connectTcp, type Socket as TcpSocket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ClientToServerEvents, ServerToClientEvents } from '../src/shared/events';
import type { ScriptUsage } from '../src/shared/script';
import { runServiceCommand, spawnService, type ServiceProcess } from './service-process';

type Device = Socket<ServerToClientEvents, ClientToServerEvents>;

/** How `account list` shows an account without quotas. */
const UNLIMITED =
  'media-mb=unlimited media-files=unlimited scripts=unlimited devices=unlimited users=unlimited';

const ADMIN = 'process-test-admin-token-0123';
const DEVICES = 1000;
let dataDir: string;
const running: ServiceProcess[] = [];
const devices: Device[] = [];
const held: TcpSocket[] = [];

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'wallboard-service-'));
});
afterEach(async () => {
  for (const device of devices.splice(0)) device.disconnect();
  for (const socket of held.splice(0)) socket.destroy();
  await Promise.all(running.splice(0).map((service) => service.stop('SIGKILL')));
  await rm(dataDir, { recursive: true, force: true });
});

async function start(extra: string[] = []): Promise<ServiceProcess> {
  const service = await spawnService(['--port', '0', '--data', dataDir, ...extra], {
    WALLBOARD_ADMIN_TOKEN: ADMIN,
  });
  running.push(service);
  return service;
}

function get(service: ServiceProcess, path: string, token = ADMIN) {
  return fetch(`${service.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
}

describe('the service process', () => {
  it('listens on loopback with the admin token of the environment', async () => {
    const service = await start();
    expect(service.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${service.url}/health`)).status).toBe(200);
    expect((await get(service, '/account/tokens')).status).toBe(200);
    expect((await get(service, '/account/tokens', 'wrong-token-0123456789')).status).toBe(401);
  }, 30_000);

  it('keeps a write it answered 2xx through a kill -9', async () => {
    const first = await start();
    const created = await fetch(`${first.url}/account/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scope: 'readonly', name: 'survivor' }),
    });
    expect(created.status).toBe(201);
    const { token } = (await created.json()) as { token: string };
    await first.stop('SIGKILL');

    const second = await start();
    const names = ((await (await get(second, '/account/tokens')).json()) as { name: string }[]).map(
      (t) => t.name,
    );
    expect(names).toContain('survivor');
    expect((await get(second, '/account/tokens', token)).status).toBe(200);
  }, 60_000);

  it('refuses a second service on the same data folder', async () => {
    await start();
    await expect(spawnService(['--port', '0', '--data', dataDir])).rejects.toThrow(/in use by process/);
  }, 30_000);

  it('creates a token from the command line, printing its secret once', async () => {
    const created = await runServiceCommand(['token', 'create', '--scope', 'affiliated', '--data', dataDir]);
    expect(created.code).toBe(0);
    const secret = created.stdout.trim();
    expect(secret).toMatch(/^wb_[\w-]{40,}$/);
    const service = await start();
    expect((await get(service, '/account/tokens', secret)).status).toBe(403);
    expect((await get(service, '/health', secret)).status).toBe(200);
  }, 60_000);

  it('makes an account, and a token of it that sees its resources only', async () => {
    const made = await runServiceCommand(['account', 'create', '--name', 'Acme', '--data', dataDir]);
    expect(made.code, made.stderr).toBe(0);
    const account = made.stdout.trim();
    expect(account).toMatch(/^acc_\w+$/);
    const again = await runServiceCommand(['account', 'create', '--name', 'Acme', '--data', dataDir]);
    expect(again.stderr).toContain('an account named "Acme" already exists');
    expect((await runServiceCommand(['account', 'list', '--data', dataDir])).stdout).toBe(
      `default\tDefault\t${UNLIMITED}\n${account}\tAcme\t${UNLIMITED}\n`,
    );
    const token = await runServiceCommand([
      'token',
      'create',
      '--scope',
      'full',
      '--account',
      account,
      '--data',
      dataDir,
    ]);
    const unknown = await runServiceCommand([
      'token',
      'create',
      '--scope',
      'full',
      '--account',
      'acc_none',
      '--data',
      dataDir,
    ]);
    expect(unknown.stderr).toContain('there is no account acc_none');
    const user = await runServiceCommand([
      'user',
      'create',
      '--role',
      'admin',
      '--login',
      'ops',
      '--account',
      account,
      '--data',
      dataDir,
    ]);
    expect(user.code, user.stderr).toBe(0);
    // Users of every account are listed, each with its account.
    expect((await runServiceCommand(['user', 'list', '--data', dataDir])).stdout).toMatch(
      new RegExp(`^ops\\tadmin\\t\\S+\\t${account}$`, 'm'),
    );
    const service = await start();
    const secret = token.stdout.trim();
    expect(((await (await get(service, '/account', secret)).json()) as { name: string }).name).toBe('Acme');
    // The environment's admin token is the default account's: it does not see Acme's token.
    const tokens = (await (await get(service, '/account/tokens')).json()) as { name: string }[];
    expect(tokens.map((t) => t.name)).toEqual(['WALLBOARD_ADMIN_TOKEN']);
  }, 60_000);

  it('explains bad options and lists every option in --help', async () => {
    const help = await runServiceCommand(['--help']);
    for (const option of [
      '--port',
      '--host',
      '--data',
      '--database-url',
      '--offline-after',
      'token create',
      'account create',
      'account update',
      '--media-files',
      '--account',
      '--drain-seconds',
      '--trust-proxy',
    ]) {
      expect(help.stdout).toContain(option);
    }
    const bad = await runServiceCommand(['--port', 'eighty']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--port must be a whole number');
    const scope = await runServiceCommand(['token', 'create', '--scope', 'root', '--data', dataDir]);
    expect(scope.stderr).toContain('--scope must be one of full, readonly, affiliated');
  }, 60_000);
});

/** Sends `signal` and resolves with the exit status and how long the exit took. */
async function signalAndWait(
  service: ServiceProcess,
  signal: NodeJS.Signals,
): Promise<{ code: number | null; ms: number }> {
  const exited = once(service.child, 'exit') as Promise<[number | null]>;
  const sent = performance.now();
  service.child.kill(signal);
  const [code] = await exited;
  return { code, ms: performance.now() - sent };
}

/**
 * A device's realtime connection, reconnecting as the agent's does (node-edges.ts), but retrying
 * at most 2 s apart rather than 5 s, to keep the test short.
 */
function device(url: string): Device {
  const socket: Device = io(url, {
    transports: ['websocket'],
    auth: { token: ADMIN },
    reconnectionDelay: 1000,
    reconnectionDelayMax: 2000,
    randomizationFactor: 0.5,
  });
  devices.push(socket);
  return socket;
}

/**
 * A request whose body never finishes arriving: it would hold the server's close forever. The
 * service must log at info level: this waits for its line about the request.
 */
async function holdRequest(service: ServiceProcess): Promise<TcpSocket> {
  const { hostname, port } = new URL(service.url);
  const socket = connectTcp(Number(port), hostname);
  held.push(socket);
  socket.on('error', () => undefined);
  await once(socket, 'connect');
  socket.write(
    `POST /flows HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${ADMIN}\r\n` +
      'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"type": ',
  );
  // Until the service has it, the connection is idle, and an idle one is simply closed.
  await expect.poll(() => service.output(), { timeout: 5000 }).toContain('"url":"/flows"');
  return socket;
}

function api(service: ServiceProcess, method: string, path: string, body?: unknown) {
  return fetch(`${service.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${ADMIN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe('stopping the service', () => {
  it('closes 1,000 device sockets and exits 0 within 5 s; a new service starts on the folder at once', async () => {
    const first = await start();
    const port = Number(new URL(first.url).port);
    const lost: string[] = [];
    let reconnected = 0;
    for (let i = 0; i < DEVICES; i++) {
      const socket = device(first.url);
      let wasLost = false;
      socket.on('disconnect', (reason) => {
        lost.push(reason);
        wasLost = true;
      });
      socket.on('connect', () => {
        if (wasLost) reconnected += 1;
      });
    }
    await Promise.all(
      devices.map(async (socket, i) => {
        await new Promise((resolve) => socket.once('connect', () => resolve(null)));
        await socket.timeout(20_000).emitWithAck('hello', { device_tag: `screen-${i}`, last_event_id: null });
      }),
    );
    // An HTTP client that keeps its connection alive, as browsers and the agent's fetch do.
    expect((await fetch(`${first.url}/health`)).status).toBe(200);

    const { code, ms } = await signalAndWait(first, 'SIGTERM');
    expect(code).toBe(0);
    expect(ms).toBeLessThan(5000);
    // Lost as a transport, not sent away: socket.io clients reconnect by themselves after that.
    // (The test's own clients may hear of the last of them a moment after the exit.)
    await expect.poll(() => lost.length, { timeout: 5_000, interval: 50 }).toBe(DEVICES);
    expect(new Set(lost)).toEqual(new Set(['transport close']));

    // The folder's lock went with the store: the next service opens it without waiting.
    const second = await start(['--port', String(port)]);
    expect((await fetch(`${second.url}/health`)).status).toBe(200);
    await expect.poll(() => reconnected, { timeout: 15_000, interval: 200 }).toBe(DEVICES);
  }, 30_000);

  it('does not wait for a request under way or a script run that never ends', async () => {
    const service = await start(['--log-level', 'info']);
    const created = await api(service, 'POST', '/scripts', {
      name: 'forever',
      code: 'while (true) {}',
      interval: '1h',
      enabled: false,
      timeout_seconds: 60,
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const run = api(service, 'POST', `/scripts/${id}/run`);
    const upload = await holdRequest(service);
    const uploadClosed = once(upload, 'close');
    // The run holds its slot: its time counts toward the account's (in tenths of a second).
    await expect
      .poll(
        async () =>
          ((await (await api(service, 'GET', '/scripts/usage')).json()) as ScriptUsage).script_time
            .used_seconds,
        { timeout: 15_000 },
      )
      .toBeGreaterThan(0);

    const { code, ms } = await signalAndWait(service, 'SIGTERM');
    expect(code).toBe(0);
    expect(ms).toBeLessThan(5000);
    // The run was answered, as stopped, before the process went; the upload was cut.
    expect((await run).status).toBe(503);
    await uploadClosed;
    expect(service.output()).toContain('SIGTERM: stopping');
    expect(service.output()).toContain('closing: cutting 1 connection still open');
    const next = await start();
    expect((await fetch(`${next.url}/health`)).status).toBe(200);
  }, 30_000);

  it('exits at once, with status 1 and a line saying so, on a second signal', async () => {
    const service = await start(['--log-level', 'info']);
    // Keeps the stop under way (for up to the close's grace, 3 s) when the second signal comes.
    await holdRequest(service);
    service.child.kill('SIGTERM');
    await expect.poll(() => service.output(), { timeout: 5000 }).toContain('SIGTERM: stopping');
    const { code, ms } = await signalAndWait(service, 'SIGINT');
    expect(code).toBe(1);
    expect(ms).toBeLessThan(1000);
    expect(service.output()).toContain('SIGINT again: forcing the exit without finishing the stop');
    // The lock of a process that is gone does not count.
    const next = await start();
    expect((await fetch(`${next.url}/health`)).status).toBe(200);
  }, 30_000);
});
