// What the launcher's tests run it with: a folder of their own holding a stand-in renderer, the
// lines it says, free ports in place of 8787 and 8080 (which a Wallboard of this machine may
// hold), and fakes of every edge that a test does not replace.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SystemInfo } from '../../agent/ports';
import { freePort } from '../../node/testing/free-ports';
import type { LauncherDeps } from '../launcher';

export const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

export const system: SystemInfo = {
  machineId: async () => '0123456789abcdef',
  hostname: async () => 'test-host',
  snapshot: async () => ({
    os: 'test',
    cpu_load: 0,
    memory: { total_bytes: 1, used_bytes: 1 },
    uptime_seconds: 1,
  }),
};

export interface LauncherBench {
  dir: string;
  /** What the launcher said, line by line; a test may empty it between two starts. */
  said: string[];
  /** Read at each start: a test may change them between two. */
  defaultPorts: { service: number; player: number };
  deps(overrides: Partial<LauncherDeps>): LauncherDeps;
}

export async function launcherBench(): Promise<LauncherBench> {
  const dir = await mkdtemp(join(tmpdir(), 'wallboard-launcher-'));
  await mkdir(join(dir, 'renderer'));
  await writeFile(join(dir, 'renderer', 'index.html'), '<!doctype html><title>player</title>');
  const bench: LauncherBench = {
    dir,
    said: [],
    defaultPorts: { service: await freePort(), player: await freePort() },
    deps: (overrides) => ({
      root: '/project',
      rendererDir: join(dir, 'renderer'),
      appVersion: '0.1.0',
      log: quiet,
      system,
      say: (line) => bench.said.push(line),
      findElectron: () => ({ ok: false, reason: 'node_modules/electron holds no binary' }),
      startService: () => Promise.reject(new Error('no service in this test')),
      spawnElectron: () => {
        throw new Error('no Electron in this test');
      },
      startWebPlayer: () => Promise.reject(new Error('no web player in this test')),
      openBrowser: async () => ({ reason: 'no display' }),
      defaultPorts: bench.defaultPorts,
      ...overrides,
    }),
  };
  return bench;
}
