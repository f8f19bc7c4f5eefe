// Real service nodes on one PostgreSQL database behind HAProxy on loopback, for service/cluster.test.ts
// and bench/fleet: the deployment of docs/deployment.md, on one machine.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnService, type ServiceFrom, type ServiceProcess } from '../service-process';

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
export async function startHaproxy(config: string, port: number): Promise<Proxy> {
  const dir = await mkdtemp(join(tmpdir(), 'wallboard-haproxy-'));
  const file = join(dir, 'haproxy.cfg');
  await writeFile(file, config);
  const child: ChildProcess = spawn(HAPROXY, ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (let tries = 0; ; tries += 1) {
    if (child.exitCode !== null) throw new Error(`haproxy exited: ${output}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection(port, '127.0.0.1', () => resolve(true)).on('error', () =>
        resolve(false),
      );
      socket.unref();
      setTimeout(() => socket.destroy(), 100).unref();
    });
    if (open) break;
    if (tries > 100) throw new Error(`haproxy did not listen on ${port}: ${output}`);
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
