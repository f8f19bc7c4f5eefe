// The ports `npm start` takes: the console's address the same from one start to the next, one
// another program holds swapped for a free one and said, one asked for refused when taken. With
// the real embedded service and web player, on real sockets.
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '../node/testing/free-ports';
import { startEmbeddedService } from './embedded-service';
import { runLauncher, type LauncherDeps } from './launcher';
import { launcherBench, system, type LauncherBench } from './testing/launcher-deps';
import { startWebPlayer } from './web-fallback';

let bench: LauncherBench;
beforeEach(async () => {
  bench = await launcherBench();
});
afterEach(() => rm(bench.dir, { recursive: true, force: true }));

/** The real embedded service (no demo content) and web player. */
const real = (): Partial<LauncherDeps> => ({
  startService: (options) => startEmbeddedService({ ...options, seeder: null }),
  startWebPlayer: (options) => startWebPlayer({ ...options, system }),
});

describe('the embedded service of npm start', () => {
  it('prints the same console address at the next start, on the last line', async () => {
    const addresses: string[] = [];
    for (const _start of [1, 2]) {
      bench.said.length = 0;
      // Another default at each start: the port the first start used is the one of the second.
      bench.defaultPorts = { service: await freePort(), player: await freePort() };
      const running = await runLauncher(
        ['--port', '0', '--data-dir', join(bench.dir, 'data')],
        {},
        bench.deps(real()),
      );
      await running?.stop();
      // The sign-in link last: what the person at the terminal reads first, and clicks.
      const link = /^Sign in .*: (http:\/\/127\.0\.0\.1:\d+)\/console\/sign-in#code=wbc_[\w-]{43}$/.exec(
        bench.said.at(-1) ?? '',
      );
      expect(link, bench.said.join('\n')).not.toBeNull();
      expect(bench.said.at(-2)).toBe(`Console: ${link?.[1]}/console/ (the same address at every start)`);
      addresses.push(link?.[1] ?? '');
    }
    expect(addresses[1]).toBe(addresses[0]);
  }, 60_000);

  it("says so when another program holds the embedded service's port, and takes another", async () => {
    const holder = createServer().listen(bench.defaultPorts.service, '127.0.0.1');
    await once(holder, 'listening');
    try {
      const running = await runLauncher(
        ['--port', '0', '--data-dir', join(bench.dir, 'data')],
        {},
        bench.deps(real()),
      );
      await running?.stop();
      const port = /127\.0\.0\.1:(\d+)$/.exec(bench.said[1] ?? '')?.[1];
      expect(bench.said[0]).toBe(
        `The embedded service: port ${bench.defaultPorts.service} is taken (another Wallboard running?): using ${port}, kept for the next start (--service-port chooses one)`,
      );
      expect(bench.said.at(-2)).toBe(
        `Console: http://127.0.0.1:${port}/console/ (the same address at every start)`,
      );
    } finally {
      holder.close();
    }
  }, 60_000);

  it('refuses a service port asked for that another program holds, naming the flag', async () => {
    const holder = createServer().listen(bench.defaultPorts.service, '127.0.0.1');
    await once(holder, 'listening');
    try {
      await expect(
        runLauncher(
          ['--service-port', String(bench.defaultPorts.service), '--data-dir', join(bench.dir, 'data')],
          {},
          bench.deps(real()),
        ),
      ).rejects.toThrow(
        `port ${bench.defaultPorts.service} is taken (another Wallboard running?): choose another with --service-port`,
      );
    } finally {
      holder.close();
    }
  }, 60_000);
});

describe('the web player of npm start', () => {
  it('takes another port when another program holds its own, and says so', async () => {
    const holder = createServer().listen(bench.defaultPorts.player, '127.0.0.1');
    await once(holder, 'listening');
    try {
      const running = await runLauncher(
        ['--server', 'http://127.0.0.1:9', '--token', 't', '--data-dir', join(bench.dir, 'data')],
        {},
        bench.deps({ startWebPlayer: (options) => startWebPlayer({ ...options, system }) }),
      );
      await running?.stop();
      const port = running?.url ? new URL(running.url).port : '';
      expect(port).not.toBe(String(bench.defaultPorts.player));
      expect(bench.said).toContain(
        `The web player: port ${bench.defaultPorts.player} is taken (another Wallboard running?): using ${port}, kept for the next start (--port chooses one)`,
      );
    } finally {
      holder.close();
    }
  }, 60_000);
});
