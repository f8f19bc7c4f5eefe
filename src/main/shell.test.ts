import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeClock, settle } from '../agent/testing/fakes';
import { FakePairings } from '../agent/testing/fake-pairings';
import { FakeService } from '../agent/testing/fake-service';
import type { DeviceAgent } from '../agent/agent';
import type { DeviceControls } from '../agent/commands';
import type { AnnouncedService, ServiceBrowser } from '../agent/ports';
import { BRIDGE_CHANNELS, type PlayerState } from '../shared/bridge';
import { CONTENT_SECURITY_POLICY } from './protocols';
import { createFakeElectron, fakeEvent, FakeWebContents, type FakeElectron } from './testing/fake-electron';
import type { Electron, Shell, ShellProcess } from './shell';

// No Electron binary exists here: the shell runs against a fake of the whole module.
vi.mock('electron', async () => (await import('./testing/fake-electron')).createFakeElectron());

const TOKEN = 'wb_token_never_in_the_renderer';
const SERVER = 'http://127.0.0.1:9';

let dir: string;
let appPath: string;
let userData: string;
let electron: FakeElectron;
let startShell: (electron: Electron, proc: ShellProcess) => Promise<Shell | null>;
let clock: FakeClock;
let out: { stdout: string; stderr: string };
const running: Shell[] = [];

/** A new fake per start: the mocked module is cached, so each start mocks it anew. */
async function freshElectron(): Promise<FakeElectron> {
  vi.resetModules();
  vi.doMock('electron', () => createFakeElectron());
  const fake = (await import('electron')) as unknown as FakeElectron;
  fake.app.paths = { userData, home: join(dir, 'home'), exe: '/opt/Wallboard/wallboard' };
  fake.app.appPath = appPath;
  return fake;
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-shell-'));
  appPath = join(dir, 'app');
  userData = join(dir, 'user-data');
  await mkdir(join(appPath, 'dist', 'renderer'), { recursive: true });
  await writeFile(join(appPath, 'dist', 'renderer', 'index.html'), '<!doctype html><title>board</title>');
  electron = await freshElectron();
  ({ startShell } = await import('./shell'));
  clock = new FakeClock();
  out = { stdout: '', stderr: '' };
});

afterEach(async () => {
  for (const shell of running.splice(0)) await shell.agent.stop();
  await rm(dir, { recursive: true, force: true });
});

/** Services "on the network" as a test announces them; none by default (never the real mDNS). */
class FakeBrowser implements ServiceBrowser {
  private onChange: ((services: AnnouncedService[]) => void) | null = null;
  start(onChange: (services: AnnouncedService[]) => void): void {
    this.onChange = onChange;
  }
  stop(): void {
    this.onChange = null;
  }
  announce(services: AnnouncedService[]): void {
    this.onChange?.(services);
  }
}

function proc(args: string[], env: Record<string, string> = {}): ShellProcess {
  const service = new FakeService(() => Date.now());
  return {
    argv: ['/usr/lib/electron/electron', appPath, ...args],
    env,
    platform: 'linux',
    resourcesPath: join(dir, 'resources'),
    stdout: (text) => (out.stdout += text),
    stderr: (text) => (out.stderr += text),
    system: {
      machineId: async () => 'ABCDEF0123456789',
      hostname: async () => 'lobby-pc',
      snapshot: async () => ({
        os: 'test',
        cpu_load: 1,
        memory: { total_bytes: 1, used_bytes: 1 },
        uptime_seconds: 1,
      }),
    },
    fetch: service.fetch,
    browser: new FakeBrowser(),
    systemctl: async () => false,
    clock,
  };
}

async function start(
  args: string[] = ['--server', SERVER, '--token', TOKEN],
  env: Record<string, string> = {},
) {
  const shell = await startShell(electron as unknown as Electron, proc(args, env));
  if (shell) running.push(shell);
  return shell;
}

function windowOf() {
  const window = electron.windows[0];
  if (!window) throw new Error('no window');
  return window;
}

const trusted = () => ({
  sender: windowOf().webContents,
  senderFrame: { ...windowOf().webContents.mainFrame },
});

/** For what the shell does on its own time (saving settings before it exits, say). */
const shellWait = { timeout: 10_000, interval: 10 };

describe('the kiosk window', () => {
  it('is full-screen, locked down, black until painted, with the cursor hidden', async () => {
    await start();
    expect(electron.windows).toHaveLength(1);
    const window = windowOf();
    expect(window.options).toMatchObject({
      kiosk: true,
      fullscreen: true,
      show: false,
      backgroundColor: '#000000',
    });
    expect(window.options.webPreferences).toEqual({
      preload: join(appPath, 'dist', 'preload', 'index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      backgroundThrottling: false,
      spellcheck: false,
      autoplayPolicy: 'no-user-gesture-required',
    });
    expect(window.shown).toBe(false);
    window.emit('ready-to-show');
    expect(window.shown).toBe(true);
    window.webContents.emit('dom-ready');
    expect(window.webContents.css).toEqual(['* { cursor: none !important; }']);
    expect(window.loadedUrl).toBe('app://wallboard/index.html');
    expect(electron.powerSaveBlocker.started).toEqual(['prevent-display-sleep']);
  });

  it('is a normal window with --windowed', async () => {
    await start(['--server', SERVER, '--token', TOKEN, '--windowed']);
    expect(windowOf().options).toMatchObject({ kiosk: false, fullscreen: false });
  });

  it('serves the renderer and the media cache through their own protocols', async () => {
    await start();
    expect(electron.protocol.privileged).toHaveLength(2);
    const app = electron.protocol.handlers.get('app');
    const media = electron.protocol.handlers.get('wallboard-media');
    if (!app || !media) throw new Error('protocols not handled');
    const index = await app(new Request('app://wallboard/index.html'));
    expect(await index.text()).toContain('<title>board</title>');
    expect(index.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect((await media(new Request('wallboard-media://cache/../settings/settings.json'))).status).toBe(404);
  });
});

describe('the security settings', () => {
  it('put the strict CSP on every response of the session', async () => {
    await start();
    const listener = electron.session.defaultSession.headersListener;
    if (!listener) throw new Error('no headers listener');
    let headers: Record<string, string[]> | undefined;
    // A weak policy of the answer's own is replaced, not merged.
    const answered = { 'content-security-policy': ['default-src *'], 'X-Other': ['1'] };
    listener({ url: 'app://wallboard/index.html', responseHeaders: answered }, (response) => {
      headers = response.responseHeaders;
    });
    expect(headers).toEqual({ 'X-Other': ['1'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] });
  });

  it("leave a web page in one of the player's frames its own headers", async () => {
    await start();
    const listener = electron.session.defaultSession.headersListener;
    if (!listener) throw new Error('no headers listener');
    let answer: { responseHeaders?: Record<string, string[]> } | undefined;
    const own = { 'Content-Security-Policy': ["frame-ancestors 'none'"] };
    listener(
      { url: 'https://dash.example.com/', resourceType: 'subFrame', responseHeaders: own },
      (response) => {
        answer = response;
      },
    );
    expect(answer).toEqual({});
  });

  it('run sandboxed frames (custom widgets) in processes of their own', async () => {
    await start();
    expect(electron.app.switches).toEqual([['enable-features', 'IsolateSandboxedIframes']]);
  });

  it("leave a custom widget's host page the policy the app protocol gave it", async () => {
    await start();
    const listener = electron.session.defaultSession.headersListener;
    if (!listener) throw new Error('no headers listener');
    const answers: unknown[] = [];
    const own = { 'content-security-policy': ["default-src 'none'"] };
    for (const url of ['app://wallboard/custom-frame.html', 'app://wallboard/custom-frame-net.html']) {
      listener({ url, resourceType: 'subFrame', responseHeaders: own }, (response) => answers.push(response));
    }
    // Anything else of the app, even in a frame, gets the player's.
    listener(
      { url: 'app://wallboard/index.html', resourceType: 'subFrame', responseHeaders: own },
      (response) => answers.push(response),
    );
    expect(answers).toEqual([
      {},
      {},
      { responseHeaders: { 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } },
    ]);
  });

  it("guard a full-screen web page's view by its own rules, not the window's", async () => {
    const shell = await start();
    const shown = await shell?.agent.showWebPage({ url: 'https://dash.example.com/', reload_seconds: null });
    expect(shown).toEqual({ shown: true });
    const view = electron.views[0];
    if (!view) throw new Error('no view');
    // Within its origin it may move (the window's contents may not move at all).
    const within = Object.assign(fakeEvent(), { url: 'https://dash.example.com/next', isMainFrame: true });
    view.webContents.emit('will-navigate', within, within.url);
    expect(within.defaultPrevented).toBe(false);
    expect(await shell?.agent.showWebPage({ url: null, reload_seconds: null })).toEqual({ shown: false });
    expect(view.webContents.closed).toBe(true);
  });

  it('refuse navigation, new windows, webviews and every permission', async () => {
    await start();
    const contents = windowOf().webContents;
    expect(contents.attempt('will-navigate', 'https://evil.example/')).toBe(true);
    expect(contents.attempt('will-redirect', 'https://evil.example/')).toBe(true);
    expect(contents.attempt('will-attach-webview', {}, {})).toBe(true);
    expect(contents.windowOpenHandler?.({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    // Any other contents the page might get created is hardened too.
    const other = new FakeWebContents();
    electron.app.emit('web-contents-created', {}, other);
    expect(other.attempt('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(other.windowOpenHandler?.({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });

    const session = electron.session.defaultSession;
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal', 'fullscreen']) {
      let granted: boolean | undefined;
      session.permissionRequest?.(contents, permission, (answer) => (granted = answer), {
        requestingUrl: 'app://wallboard/index.html',
      });
      expect(granted, permission).toBe(false);
      expect(session.permissionCheck?.(contents, permission, 'app://wallboard', {})).toBe(false);
    }
  });
});

describe('the bridge', () => {
  it('answers our page, refuses a foreign frame, and never gives the token away', async () => {
    const shell = await start();
    // electron-store's own channel, which would answer any frame, is not left open.
    expect([...electron.ipcMain.listeners.keys()]).not.toContain('electron-store-get-data');
    const state = (await electron.ipcMain.invoke(BRIDGE_CHANNELS.getState, trusted())) as PlayerState;
    expect(state.device).toEqual({ tag: 'screen-abcdef012345', name: 'lobby-pc' });
    expect(JSON.stringify(state)).not.toContain(TOKEN);
    const foreign = { ...trusted(), senderFrame: { ...trusted().senderFrame, url: 'https://evil.example/' } };
    await expect(electron.ipcMain.invoke(BRIDGE_CHANNELS.getState, foreign)).rejects.toThrow('refused');
    electron.ipcMain.send(BRIDGE_CHANNELS.log, trusted(), { level: 'info', message: 'hello from the page' });
    expect(out.stderr).toContain('renderer: hello from the page');
    expect(out.stderr).toContain('refused IPC on wallboard:get-state from https://evil.example/');
    expect(shell?.config.token).toBe(TOKEN);
  });
});

describe('configuration', () => {
  it('remembers flags, keeps the token encrypted, and starts again without flags', async () => {
    const first = await start(['--server', 'https://wall.example', '--token', TOKEN, '--tag', 'lobby']);
    expect(first?.config).toMatchObject({ server: 'https://wall.example', tag: 'lobby' });
    expect(await readdir(userData)).toContain('token.enc');
    expect(await readFile(join(userData, 'token.enc'), 'utf8')).not.toContain(TOKEN);
    expect(await readFile(join(userData, 'settings', 'shell-settings.json'), 'utf8')).not.toContain(TOKEN);
    await first?.agent.stop();

    electron = await freshElectron();
    const second = await start([]);
    expect(second?.config).toMatchObject({ server: 'https://wall.example', tag: 'lobby', token: TOKEN });
  });

  it('starts from the last good settings when the settings file was damaged', async () => {
    await (
      await start(['--server', 'https://wall.example', '--token', TOKEN, '--tag', 'lobby'])
    )?.agent.stop();
    electron = await freshElectron();
    await (await start(['--name', 'Lobby screen']))?.agent.stop();
    // A disk that lost what was flushed: half a file.
    const file = join(userData, 'settings', 'shell-settings.json');
    await writeFile(file, (await readFile(file, 'utf8')).slice(0, 20));
    electron = await freshElectron();
    out.stderr = '';
    const shell = await start([]);
    expect(shell?.config).toMatchObject({
      server: 'https://wall.example',
      tag: 'lobby',
      name: 'Lobby screen',
    });
    expect(out.stderr).toMatch(/the stored settings were damaged \(.*\); using their last good copy/);
  });

  it('exits with status 2, and says why, when a setting is invalid', async () => {
    expect(await start(['--server', 'ftp://wall.example'])).toBeNull();
    expect(electron.app.exits).toEqual([2]);
    expect(out.stderr).toMatch(/command-line flags: server must be an http or https URL/);
    expect(electron.windows).toEqual([]);
  });

  it('with no service configured, pairs with the one picked among those found, keeping the token as given ones are', async () => {
    const service = new FakeService(() => Date.now());
    service.addDevice('kitchen');
    const pairings = new FakePairings(clock, service.fetch);
    pairings.claimAtOnce = true;
    const browser = new FakeBrowser();
    const shell = await startShell(electron as unknown as Electron, {
      ...proc([]),
      fetch: pairings.fetch,
      browser,
    });
    if (!shell) throw new Error('the shell did not start');
    running.push(shell);
    expect(shell.agent.getState().setup).toEqual({ kind: 'discovering', services: [] });
    // Off loopback and over plain http: reachable only because it is the service picked.
    const found = [
      { id: 'office.local', name: 'Wallboard office', url: 'http://192.0.2.10:8787' },
      { id: 'lab.local', name: 'Wallboard lab', url: 'http://192.0.2.11:8787' },
    ];
    browser.announce(found);
    electron.ipcMain.send(BRIDGE_CHANNELS.chooseService, trusted(), { id: 'lab.local' });
    await vi.waitFor(() => expect(shell.agent.getState().device.tag).toBe('kitchen'), shellWait);
    expect(pairings.calls[0]).toMatchObject({ method: 'POST', path: '/pairings' });
    expect(await readFile(join(userData, 'token.enc'), 'utf8')).not.toContain('token-of-kitchen');
    await shell.agent.stop();
    running.length = 0;

    electron = await freshElectron();
    const again = await start([]);
    expect(again?.config).toMatchObject({
      server: 'http://192.0.2.11:8787',
      token: 'token-of-kitchen-0123456789',
      tag: 'kitchen',
    });
  });

  it('leaves the screen to an instance already running', async () => {
    electron.app.lockGranted = false;
    expect(await start()).toBeNull();
    expect(electron.app.exits).toEqual([0]);
    expect(electron.windows).toEqual([]);
  });

  it('prints its help', async () => {
    expect(await start(['--help'])).toBeNull();
    expect(out.stdout).toMatch(/--install-autostart/);
    expect(electron.app.exits).toEqual([0]);
  });

  it('installs and removes autostart, then exits', async () => {
    await mkdir(join(dir, 'resources'));
    await writeFile(join(dir, 'resources', 'placeholder'), '');
    const templates = join(appPath, 'resources', 'linux');
    await mkdir(templates, { recursive: true });
    await writeFile(join(templates, 'wallboard.desktop'), '[Desktop Entry]\nExec=@APP@\n');
    await writeFile(join(templates, 'wallboard.service'), '[Service]\nExecStart=@APP@\n');
    expect(await start(['--install-autostart'])).toBeNull();
    const desktop = join(dir, 'home', '.config', 'autostart', 'wallboard.desktop');
    expect(await readFile(desktop, 'utf8')).toBe(
      `[Desktop Entry]\nExec=/usr/lib/electron/electron ${appPath}\n`,
    );
    expect(electron.app.exits).toEqual([0]);
    electron = await freshElectron();
    expect(await start(['--remove-autostart'])).toBeNull();
    await expect(readFile(desktop)).rejects.toThrow(/ENOENT/);
    expect(electron.windows).toEqual([]);
  });
});

describe('self-healing', () => {
  it('reloads a crashed renderer and restarts the app after the crash budget', async () => {
    await start();
    const contents = windowOf().webContents;
    contents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 1 });
    contents.emit('render-process-gone', {}, { reason: 'oom', exitCode: 1 });
    expect(contents.reloads).toBe(2);
    expect(electron.app.relaunches).toEqual([]);
    contents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 1 });
    await vi.waitFor(() => expect(electron.app.exits).not.toEqual([]), shellWait);
    expect(contents.reloads).toBe(2);
    expect(electron.app.relaunches).toEqual([{ args: [appPath, '--server', SERVER, '--token', TOKEN] }]);
    expect(electron.app.exits).toEqual([0]);

    // The restarted app reports the restart in its first heartbeat.
    electron = await freshElectron();
    out.stderr = '';
    await start();
    expect(out.stderr).toMatch(/recovered: restarted the app: the renderer went away 3 times/);
  });

  it('asks systemd for the restart when it runs under the user unit', async () => {
    await start(undefined, { WALLBOARD_SUPERVISED: 'systemd' });
    for (let i = 0; i < 3; i += 1) {
      windowOf().webContents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 1 });
    }
    await vi.waitFor(() => expect(electron.app.exits).not.toEqual([]), shellWait);
    expect(electron.app.exits).toEqual([75]);
    expect(electron.app.relaunches).toEqual([]);
  });

  it('kills and reloads a renderer unresponsive for too long', async () => {
    await start();
    const window = windowOf();
    window.emit('unresponsive');
    await clock.advance(29_000);
    expect(window.webContents.crashes).toBe(0);
    await clock.advance(1_000);
    expect(window.webContents.crashes).toBe(1);
    window.webContents.emit('render-process-gone', {}, { reason: 'killed', exitCode: 9 });
    expect(window.webContents.reloads).toBe(1);
  });

  it('turns hardware acceleration off after repeated GPU crashes, for every later start', async () => {
    await start();
    for (let i = 0; i < 3; i += 1) {
      electron.app.emit('child-process-gone', {}, { type: 'GPU', reason: 'crashed', exitCode: 139 });
    }
    await vi.waitFor(() => expect(electron.app.exits).not.toEqual([]), shellWait);
    expect(electron.app.relaunches).toEqual([
      { args: [appPath, '--server', SERVER, '--token', TOKEN, '--disable-gpu'] },
    ]);
    const stored = JSON.parse(await readFile(join(userData, 'settings', 'shell-settings.json'), 'utf8'));
    expect(stored.shell).toEqual({ disable_gpu: true });
    electron = await freshElectron();
    await start();
    expect(electron.app.hardwareAccelerationDisabled).toBe(true);
  });

  it('recycles a renderer grown past its memory limit at the next change of board', async () => {
    await start();
    const contents = windowOf().webContents;
    electron.app.metrics = [
      { pid: 1, type: 'Browser', memory: { workingSetSize: 4_000_000, peakWorkingSetSize: 0 } },
      {
        pid: contents.osProcessId,
        type: 'Tab',
        memory: { workingSetSize: 1_500_000, peakWorkingSetSize: 0 },
      },
    ];
    await clock.advance(60_000);
    await settle();
    expect(contents.reloads).toBe(0);
    electron.ipcMain.send(BRIDGE_CHANNELS.reportShowing, trusted(), { showing: 'board:b2' });
    expect(contents.reloads).toBe(1);
    expect(out.stderr).toMatch(
      /recovered: the renderer grew past 1024 MB; reloaded it between two playlist items/,
    );
  });
});

it('stops the agent and the display lock on quit', async () => {
  const shell = await start();
  electron.app.quit();
  await vi.waitFor(() => expect(electron.app.quitCalls).toBeGreaterThanOrEqual(2), shellWait);
  expect(electron.powerSaveBlocker.stopped).toEqual([1]);
  running.splice(running.indexOf(shell as Shell), 1);
});

it('lets go of the display lock in a power window, so the display can sleep, and takes it again once woken', async () => {
  // The agent class of the module graph the shell was loaded in (fresh for each test).
  const { DeviceAgent } = await import('../agent/agent');
  const given: Partial<DeviceControls>[] = [];
  const useControls = DeviceAgent.prototype.useControls;
  vi.spyOn(DeviceAgent.prototype, 'useControls').mockImplementation(function (
    this: DeviceAgent,
    controls: Partial<DeviceControls>,
  ) {
    given.push(controls);
    useControls.call(this, controls);
  });
  await start();
  const controls = given.at(-1)!;
  // No display server here (no DISPLAY, no cec-client): the screen is only drawn black.
  expect(await controls.sleepDisplay!()).toBe('black');
  expect(electron.powerSaveBlocker.stopped).toEqual([1]);
  await controls.wakeDisplay!();
  expect(electron.powerSaveBlocker.started).toEqual(['prevent-display-sleep', 'prevent-display-sleep']);
});
