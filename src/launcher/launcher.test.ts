import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmbeddedService } from './embedded-service';
import { KIOSK_GAVE_UP_STATUS } from './kiosk-healing';
import { runLauncher, type LauncherDeps } from './launcher';
import { launcherBench, system, type LauncherBench } from './testing/launcher-deps';
import { startWebPlayer } from './web-fallback';

let bench: LauncherBench;
let dir: string;
let said: string[];
let defaultPorts: LauncherBench['defaultPorts'];
beforeEach(async () => {
  bench = await launcherBench();
  ({ dir, said, defaultPorts } = bench);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const deps = (overrides: Partial<LauncherDeps>) => bench.deps(overrides);

function fakeElectronSpawner() {
  const spawned: { path: string; args: string[]; env: Record<string, string> }[] = [];
  let exit: (code: number) => void = () => undefined;
  const spawnElectron: LauncherDeps['spawnElectron'] = (path, args, env) => {
    spawned.push({ path, args, env });
    const exited = new Promise<number>((resolve) => (exit = resolve));
    return { exited, stop: async () => exit(0) };
  };
  return { spawned, spawnElectron, exit: (code: number) => exit(code) };
}

describe('npm start without an Electron runtime', () => {
  it('says so in one line, runs the embedded service and serves the web player the device shows', async () => {
    let token = '';
    const running = await runLauncher(
      ['--port', '0', '--data-dir', join(dir, 'data')],
      {},
      deps({
        startService: async (options) => {
          const service = await startEmbeddedService({ ...options, seeder: null });
          token = service.token;
          return service;
        },
        startWebPlayer: (options) => startWebPlayer({ ...options, system }),
      }),
    );
    if (!running?.url) throw new Error('the web player did not start');
    try {
      expect(said.filter((line) => /Electron/.test(line))).toEqual([
        'No Electron runtime on this machine (node_modules/electron holds no binary): serving the web player instead.',
      ]);
      expect(said[0]).toBe(
        `No service configured: the embedded one with the demo content runs at http://127.0.0.1:${defaultPorts.service}`,
      );
      expect(said.at(-4)).toBe(
        `Wallboard web player for "screen-0123456789ab" at ${running.url} (not opened: no display)`,
      );
      // Last, set apart: the console's address, and a one-time link that signs the demo admin in,
      // the code in the fragment.
      expect(said.slice(-3, -1)).toEqual([
        '',
        `Console: http://127.0.0.1:${defaultPorts.service}/console/ (the same address at every start)`,
      ]);
      expect(said.at(-1)).toMatch(
        new RegExp(
          `^Sign in with this one-time link \\(within 15 minutes\\): http://127\\.0\\.0\\.1:${defaultPorts.service}/console/sign-in#code=wbc_[\\w-]{43}$`,
        ),
      );
      // The renderer built in, the version on screen until the service sends another.
      const page = await fetch(running.url);
      expect(page.url).toBe(new URL('v/built-in/', running.url).href);
      expect(await page.text()).toContain('<title>player</title>');
      // The agent behind the page registered with the embedded service.
      const serviceUrl = `http://127.0.0.1:${defaultPorts.service}`;
      await expect
        .poll(
          async () =>
            (
              await fetch(`${serviceUrl}/devices/screen-0123456789ab`, {
                headers: { authorization: `Bearer ${token}` },
              })
            ).status,
          { timeout: 30_000, interval: 50 },
        )
        .toBe(200);
    } finally {
      await running.stop();
    }
    await expect(running.done).resolves.toBe(0);
    await expect(fetch(running.url)).rejects.toThrow();
    // The embedded service starts first: seconds on a loaded machine.
  }, 60_000);

  it('opens the player in the kiosk browser, reports its restarts, and fails once it gives up', async () => {
    let giveUp: (reason: string) => void = () => undefined;
    let recovered: (what: string) => void = () => undefined;
    const closed: string[] = [];
    const recoveries: string[] = [];
    const running = await runLauncher(
      ['--server', 'http://127.0.0.1:9', '--token', 't', '--port', '0'],
      {},
      deps({
        startWebPlayer: async () => ({
          url: 'http://127.0.0.1:1234/',
          recordRecovery: (what) => void recoveries.push(what),
          close: async () => void closed.push('player'),
        }),
        openBrowser: async (_url, onRecovered) => {
          recovered = onRecovered;
          return {
            gaveUp: new Promise<string>((resolve) => (giveUp = resolve)),
            stop: async () => void closed.push('browser'),
          };
        },
      }),
    );
    expect(said.at(-1)).toBe(
      `Wallboard web player for "screen-0123456789ab" at http://127.0.0.1:1234/, open in Chromium's kiosk mode`,
    );
    recovered('kiosk browser restarted after it was killed by SIGKILL');
    expect(recoveries).toEqual(['kiosk browser restarted after it was killed by SIGKILL']);
    giveUp('the kiosk browser exited with status 1, after 5 restarts within 10 minutes: giving up');
    // Not 0: a systemd unit with Restart=on-failure starts the launcher again.
    await expect(running?.done).resolves.toBe(KIOSK_GAVE_UP_STATUS);
    expect(KIOSK_GAVE_UP_STATUS).not.toBe(0);
    expect(closed).toEqual(['browser', 'player']);
  });

  it('ends with status 0 when it is stopped', async () => {
    const closed: string[] = [];
    const running = await runLauncher(
      ['--server', 'http://127.0.0.1:9', '--token', 't', '--port', '0'],
      {},
      deps({
        startWebPlayer: async () => ({
          url: 'http://127.0.0.1:1234/',
          recordRecovery: () => undefined,
          close: async () => void closed.push('player'),
        }),
        openBrowser: async () => ({
          gaveUp: new Promise<string>(() => undefined),
          stop: async () => void closed.push('browser'),
        }),
      }),
    );
    await running?.stop();
    await expect(running?.done).resolves.toBe(0);
    expect(closed).toEqual(['browser', 'player']);
  });
});

/** A web player that only notes the configuration it was started with. */
function recordingPlayer(configs: unknown[]): LauncherDeps['startWebPlayer'] {
  return async (options) => {
    configs.push(options.config);
    return { url: 'http://127.0.0.1:1234/', recordRecovery: () => undefined, close: async () => undefined };
  };
}

describe('npm start with a service but no token', () => {
  it('serves the web player, which pairs, instead of refusing to start', async () => {
    const configs: unknown[] = [];
    const running = await runLauncher(
      ['--server', 'http://127.0.0.1:9', '--port', '0', '--data-dir', join(dir, 'data')],
      {},
      deps({
        startWebPlayer: recordingPlayer(configs),
      }),
    );
    expect(configs).toMatchObject([{ server: 'http://127.0.0.1:9', token: null }]);
    expect(said.at(-1)).toBe(
      'Wallboard web player at http://127.0.0.1:1234/, pairing with http://127.0.0.1:9 (not opened: no display)',
    );
    await running?.stop();
  });

  it('plays with what pairing kept at the next start', async () => {
    const settings = join(dir, 'data', 'player', 'settings');
    await mkdir(settings, { recursive: true });
    await writeFile(
      join(settings, 'settings.json'),
      JSON.stringify({ server: 'http://127.0.0.1:9', token: 'paired-token', tag: 'kitchen' }),
    );
    const configs: unknown[] = [];
    const running = await runLauncher(
      ['--server', 'http://127.0.0.1:9', '--port', '0', '--data-dir', join(dir, 'data')],
      {},
      deps({
        startWebPlayer: recordingPlayer(configs),
      }),
    );
    expect(configs).toMatchObject([{ server: 'http://127.0.0.1:9', token: 'paired-token', tag: 'kitchen' }]);
    expect(said.at(-1)).toBe(
      'Wallboard web player for "kitchen" at http://127.0.0.1:1234/ (not opened: no display)',
    );
    await running?.stop();
  });
});

describe('npm start with an Electron runtime', () => {
  it('starts Electron on the project, with the embedded demo service by environment', async () => {
    const electron = fakeElectronSpawner();
    const closed: string[] = [];
    const running = await runLauncher(
      ['--windowed'],
      { WALLBOARD_NAME: 'Lobby' },
      deps({
        findElectron: () => ({ ok: true, path: '/opt/electron/electron' }),
        startService: async ({ deviceTag }) => {
          expect(deviceTag).toBe('screen-0123456789ab');
          return {
            url: 'http://127.0.0.1:4321',
            token: 'demo-token',
            close: async () => void closed.push('service'),
          };
        },
        spawnElectron: electron.spawnElectron,
      }),
    );
    expect(electron.spawned).toEqual([
      {
        path: '/opt/electron/electron',
        args: ['/project', '--windowed'],
        env: {
          WALLBOARD_SERVER: 'http://127.0.0.1:4321',
          WALLBOARD_TOKEN: 'demo-token',
          WALLBOARD_TAG: 'screen-0123456789ab',
        },
      },
    ]);
    expect(said.some((line) => /No Electron/.test(line))).toBe(false);
    // The console last, once Electron runs.
    expect(said.at(-1)).toBe('Console: http://127.0.0.1:4321/console/');
    electron.exit(3);
    await expect(running?.done).resolves.toBe(3);
    expect(closed).toEqual(['service']);
  });

  it('passes a configured service on as flags and starts no embedded one', async () => {
    const electron = fakeElectronSpawner();
    const running = await runLauncher(
      ['--server', 'https://wall.example', '--token', 'secret', '--tag', 'lobby'],
      {},
      deps({
        findElectron: () => ({ ok: true, path: '/e' }),
        spawnElectron: electron.spawnElectron,
      }),
    );
    expect(electron.spawned[0]?.args).toEqual([
      '/project',
      '--server',
      'https://wall.example',
      '--token',
      'secret',
      '--tag',
      'lobby',
    ]);
    expect(electron.spawned[0]?.env).toEqual({});
    await running?.stop();
  });

  it('serves the web player instead with --web', async () => {
    const running = await runLauncher(
      ['--web', '--server', 'http://127.0.0.1:9', '--token', 't'],
      {},
      deps({
        findElectron: () => ({ ok: true, path: '/e' }),
        startWebPlayer: async () => ({
          url: 'http://127.0.0.1:1/',
          recordRecovery: () => undefined,
          close: async () => undefined,
        }),
      }),
    );
    expect(said[0]).toBe(
      'No Electron runtime on this machine (--web was given): serving the web player instead.',
    );
    await running?.stop();
  });
});

it('lists its flags with --help', async () => {
  expect(await runLauncher(['--help'], {}, deps({}))).toBeNull();
  for (const flag of [
    '--server',
    '--token',
    '--tag',
    '--windowed',
    '--web',
    '--port',
    '--service-port',
    '--data-dir',
  ]) {
    expect(said[0]).toContain(flag);
  }
});
