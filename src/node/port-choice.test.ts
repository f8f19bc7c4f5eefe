// The port choice against real sockets on loopback: what a second `npm start` meets when the first
// holds its port.
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listenOnChosenPort, PortTakenError, rememberedPort, type PortWish } from './port-choice';
import { freePort } from './testing/free-ports';

let dir: string;
let servers: Server[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-ports-'));
  servers = [];
});
afterEach(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await rm(dir, { recursive: true, force: true });
});

/** Listens on `port` of 127.0.0.1 as the product's servers do; resolves with the port bound. */
async function listen(port: number): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  servers.push(server);
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

/** Another program on `port`. */
async function occupy(port: number): Promise<void> {
  const server = createServer().listen(port, '127.0.0.1');
  await once(server, 'listening');
  servers.push(server);
}

const wish = (more: Partial<PortWish>): PortWish => ({
  byDefault: 0,
  memory: join(dir, 'service', 'port'),
  flag: '--service-port',
  ...more,
});

describe('a port nobody asked for', () => {
  it('is the default the first time, and remembered', async () => {
    const byDefault = await freePort();
    expect(await listenOnChosenPort(wish({ byDefault }), listen)).toEqual({ port: byDefault, note: null });
    expect(await readFile(join(dir, 'service', 'port'), 'utf8')).toBe(`${byDefault}\n`);
  });

  it('is the one used last time rather than the default', async () => {
    const [last, byDefault] = [await freePort(), await freePort()];
    await writeFile(join(dir, 'port'), `${last}\n`);
    const chosen = await listenOnChosenPort(wish({ byDefault, memory: join(dir, 'port') }), listen);
    expect(chosen).toEqual({ port: last, note: null });
  });

  it('is another one when the wanted one is taken, said, and kept for the next start', async () => {
    const byDefault = await freePort();
    await occupy(byDefault);
    const chosen = await listenOnChosenPort(wish({ byDefault }), listen);
    expect(chosen.port).not.toBe(byDefault);
    expect(chosen.note).toBe(
      `port ${byDefault} is taken (another Wallboard running?): using ${chosen.port}, kept for the next start (--service-port chooses one)`,
    );
    expect(await rememberedPort(join(dir, 'service', 'port'))).toBe(chosen.port);
    // Its next start finds the same port, though the default is still taken.
    await Promise.all(servers.slice(1).map((server) => new Promise((resolve) => server.close(resolve))));
    servers = servers.slice(0, 1);
    expect(await listenOnChosenPort(wish({ byDefault }), listen)).toEqual({ port: chosen.port, note: null });
  });

  it('goes back to the default when the remembered one is taken', async () => {
    const [last, byDefault] = [await freePort(), await freePort()];
    await writeFile(join(dir, 'port'), `${last}\n`);
    await occupy(last);
    const chosen = await listenOnChosenPort(wish({ byDefault, memory: join(dir, 'port') }), listen);
    expect(chosen.port).toBe(byDefault);
    expect(chosen.note).toMatch(new RegExp(`^port ${last} is taken`));
  });

  it('is any free one when the remembered one and the default are both taken', async () => {
    const [last, byDefault] = [await freePort(), await freePort()];
    await writeFile(join(dir, 'port'), `${last}\n`);
    await Promise.all([occupy(last), occupy(byDefault)]);
    const chosen = await listenOnChosenPort(wish({ byDefault, memory: join(dir, 'port') }), listen);
    expect([last, byDefault, 0]).not.toContain(chosen.port);
    expect(chosen.note).toMatch(new RegExp(`^port ${last} and ${byDefault} are taken`));
  });

  it('ignores a memory that holds no port', async () => {
    const byDefault = await freePort();
    await writeFile(join(dir, 'port'), 'not a port\n');
    const chosen = await listenOnChosenPort(wish({ byDefault, memory: join(dir, 'port') }), listen);
    expect(chosen).toEqual({ port: byDefault, note: null });
  });
});

describe('a port asked for', () => {
  it('overrides the remembered one and the default, and is remembered', async () => {
    const [requested, last, byDefault] = [await freePort(), await freePort(), await freePort()];
    await writeFile(join(dir, 'port'), `${last}\n`);
    const memory = join(dir, 'port');
    expect(await listenOnChosenPort(wish({ requested, byDefault, memory }), listen)).toEqual({
      port: requested,
      note: null,
    });
    expect(await rememberedPort(memory)).toBe(requested);
  });

  it('fails when taken, naming the flag, rather than swapping it for another', async () => {
    const requested = await freePort();
    await occupy(requested);
    const chosen = listenOnChosenPort(wish({ requested }), listen);
    await expect(chosen).rejects.toThrow(PortTakenError);
    await expect(chosen).rejects.toThrow(
      `port ${requested} is taken (another Wallboard running?): choose another with --service-port`,
    );
  });

  it('0 is any free one, and not remembered', async () => {
    const memory = join(dir, 'port');
    const chosen = await listenOnChosenPort(wish({ requested: 0, memory }), listen);
    expect(chosen.port).toBeGreaterThan(0);
    expect(await rememberedPort(memory)).toBeUndefined();
  });
});
