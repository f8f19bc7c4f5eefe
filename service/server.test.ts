import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runServiceCommand, spawnService, type ServiceProcess } from './service-process';

const ADMIN = 'process-test-admin-token-0123';
let dataDir: string;
const running: ServiceProcess[] = [];

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'wallboard-service-'));
});
afterEach(async () => {
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

  it('explains bad options and lists every option in --help', async () => {
    const help = await runServiceCommand(['--help']);
    for (const option of [
      '--port',
      '--host',
      '--data',
      '--database-url',
      '--offline-after',
      'token create',
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
