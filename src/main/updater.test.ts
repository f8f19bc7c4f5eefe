import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReleaseOffer } from '../shared/release';
import { describeFile, latestYml, ReleaseServer } from '../agent/testing/release-server';
import { recordingLogger } from '../agent/testing/fakes';
import { UpdateRefused, type ReleaseSource } from '../agent/update-ports';
import { FakeApp } from './testing/fake-electron';
import { appImageUpdaterWithFakeApp } from './testing/fake-updater';
import { feedNameFor, ShellUpdateTarget, UPDATER_CACHE_DIR_NAME } from './updater';
import { shellUpdateTarget, whyNoShellUpdates } from './updater-platform';

const TOKEN = 'device-token';
const BASE = '/devices/lobby/releases/rel_2/files';

let server: ReleaseServer;
let dir: string;
let app: FakeApp;
let restarts: string[];
let log: ReturnType<typeof recordingLogger>;

/**
 * An "AppImage" that electron-updater can run as it installs one (with APPIMAGE_EXIT_AFTER_INSTALL,
 * a real AppImage's AppRun exits at once too): a script that exits, padded to a realistic size.
 */
function fakeAppImage(version: string): Buffer {
  return Buffer.concat([
    Buffer.from(`#!/bin/sh\nexit 0\n# ${version}\n#`),
    randomBytes(200_000).map((byte) => (byte === 10 ? 32 : byte)),
  ]);
}

/** Serves release `version` as electron-builder publishes it for Linux; returns the service's offer of it. */
function publish(version: string, bytes = fakeAppImage(version), served = bytes): ReleaseOffer {
  const installer = describeFile(`Wallboard-${version}.AppImage`, bytes);
  const yml = latestYml(version, [installer]);
  server.put(`${BASE}/latest-linux.yml`, yml);
  server.put(`${BASE}/${installer.name}`, served);
  return server.offer(BASE, {
    kind: 'shell',
    version,
    files: [installer, describeFile('latest-linux.yml', Buffer.from(yml))],
  });
}

function target(appImage: string): ShellUpdateTarget {
  return new ShellUpdateTarget({
    createUpdater: () => appImageUpdaterWithFakeApp(app),
    version: app.version,
    platform: 'linux',
    arch: 'x64',
    dataDir: app.getPath('userData'),
    appImage,
    restart: (reason) => restarts.push(reason),
    log,
  });
}

const source = (): ReleaseSource => ({ baseUrl: `${server.url}${BASE}`, token: TOKEN });

beforeEach(async () => {
  server = await new ReleaseServer(TOKEN).start();
  dir = await mkdtemp(join(tmpdir(), 'wallboard-shell-updater-'));
  app = new FakeApp();
  app.isPackaged = true;
  app.version = '1.0.0';
  app.setPath('userData', join(dir, 'user-data'));
  restarts = [];
  log = recordingLogger();
  // electron-updater keeps its downloads under the system's cache folder, and replaces $APPIMAGE.
  vi.stubEnv('XDG_CACHE_HOME', join(dir, 'cache'));
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function installedAppImage(name: string, version: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, fakeAppImage(version));
  await chmod(path, 0o755);
  vi.stubEnv('APPIMAGE', path);
  return path;
}

const cacheFiles = async () =>
  readdir(join(dir, 'cache', UPDATER_CACHE_DIR_NAME), { recursive: true }).catch(() => [] as string[]);

describe("electron-updater's own code on our feed (AppImageUpdater, with the fake Electron's app)", () => {
  it('reads the feed with the device token, downloads the installer and verifies its sha512', async () => {
    const appImage = await installedAppImage('Wallboard.AppImage', '1.0.0');
    const bytes = fakeAppImage('2.0.0');
    const offer = publish('2.0.0', bytes);
    await target(appImage).download(offer, source(), new AbortController().signal);

    expect(server.requests.map((request) => request.path)).toEqual([
      `${BASE}/latest-linux.yml`,
      `${BASE}/Wallboard-2.0.0.AppImage`,
    ]);
    expect(new Set(server.requests.map((request) => request.authorization))).toEqual(
      new Set([`Bearer ${TOKEN}`]),
    );
    const downloaded = join(dir, 'cache', UPDATER_CACHE_DIR_NAME, 'pending', 'Wallboard-2.0.0.AppImage');
    expect(Buffer.compare(await readFile(downloaded), bytes)).toBe(0);
    expect(restarts).toEqual([]);
  });

  it('refuses a tampered installer (bytes changed, the feed’s sha512 left as it was) and installs nothing', async () => {
    const appImage = await installedAppImage('Wallboard.AppImage', '1.0.0');
    const bytes = fakeAppImage('2.0.0');
    const tampered = Buffer.from(bytes);
    tampered[100_000] = (tampered[100_000] ?? 0) ^ 0x01;
    const offer = publish('2.0.0', bytes, tampered);
    const shell = target(appImage);
    const before = await readFile(appImage);

    const error = await shell
      .download(offer, source(), new AbortController().signal)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpdateRefused);
    expect((error as Error).message).toMatch(/sha512 checksum mismatch/);
    // Nothing of it is kept, and there is nothing to install.
    expect((await cacheFiles()).filter((name) => name.endsWith('.AppImage'))).toEqual([]);
    await expect(shell.install(offer)).rejects.toThrow(/not downloaded/);
    expect(Buffer.compare(await readFile(appImage), before)).toBe(0);
    expect(restarts).toEqual([]);
    expect(log.lines.join('\n')).toMatch(
      /sha512 checksum mismatch after full download of Wallboard-2.0.0.AppImage/,
    );
  });

  it('refuses a feed whose file is not the one the service lists, before downloading it', async () => {
    const appImage = await installedAppImage('Wallboard.AppImage', '1.0.0');
    const offer = publish('2.0.0');
    const other = describeFile('Wallboard-2.0.0.AppImage', fakeAppImage('2.0.0-other'));
    const listed = { ...offer, files: offer.files.map((file) => (file.name === other.name ? other : file)) };
    await expect(target(appImage).download(listed, source(), new AbortController().signal)).rejects.toThrow(
      /the feed's Wallboard-2.0.0.AppImage is not the release's/,
    );
    expect(server.requests.map((request) => request.path)).toEqual([`${BASE}/latest-linux.yml`]);
  });

  it('refuses a feed that offers another version than the service', async () => {
    const appImage = await installedAppImage('Wallboard.AppImage', '1.0.0');
    const offer = publish('2.0.0');
    await expect(
      target(appImage).download({ ...offer, version: '2.0.1' }, source(), new AbortController().signal),
    ).rejects.toThrow(/the feed offers 2.0.0, the service offers 2.0.1/);
  });

  it('refuses a release built for other platforms before asking for a byte', async () => {
    const appImage = await installedAppImage('Wallboard.AppImage', '1.0.0');
    const offer = publish('2.0.0');
    const forWindows = {
      ...offer,
      files: [
        describeFile('Wallboard Setup 2.0.0.exe', randomBytes(1000)),
        describeFile('latest.yml', Buffer.from('x')),
      ],
    };
    await expect(
      target(appImage).download(forWindows, source(), new AbortController().signal),
    ).rejects.toThrow(
      new UpdateRefused('release 2.0.0 has no latest-linux.yml: it was not built for linux on x64'),
    );
    expect(server.requests).toEqual([]);
  });

  it('reads the feed of its processor: latest-linux-arm64.yml on arm64', () => {
    expect(feedNameFor('linux', 'arm64')).toBe('latest-linux-arm64.yml');
    expect(feedNameFor('linux', 'x64')).toBe('latest-linux.yml');
    expect(feedNameFor('win32', 'x64')).toBe('latest.yml');
    expect(feedNameFor('darwin', 'arm64')).toBe('latest-mac.yml');
  });

  it('downloads a lower version (a rollback): downgrades are allowed', async () => {
    app.version = '3.1.0';
    const appImage = await installedAppImage('Wallboard.AppImage', '3.1.0');
    const offer = publish('2.0.0');
    await target(appImage).download(offer, source(), new AbortController().signal);
    expect(server.requests.at(-1)?.path).toBe(`${BASE}/Wallboard-2.0.0.AppImage`);
  });

  it('treats a refused token as passing (tried again later), not as a wrong release', async () => {
    const appImage = await installedAppImage('Wallboard.AppImage', '1.0.0');
    const offer = publish('2.0.0');
    const error = await target(appImage)
      .download(offer, { ...source(), token: 'wrong' }, new AbortController().signal)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(UpdateRefused);
  });
});

describe('installing on Linux (the AppImage replaced in place, then the shell restarts)', () => {
  it('puts the verified AppImage where the old one was and restarts the shell', async () => {
    const appImage = await installedAppImage('Wallboard.AppImage', '1.0.0');
    const bytes = fakeAppImage('2.0.0');
    const offer = publish('2.0.0', bytes);
    const shell = target(appImage);
    await shell.download(offer, source(), new AbortController().signal);
    expect(await shell.install(offer)).toBe('restarting');
    expect(Buffer.compare(await readFile(appImage), bytes)).toBe(0);
    expect(restarts).toEqual(['installing the shell 2.0.0']);
  });

  it('keeps a versioned AppImage’s name, the one autostart and the systemd unit start', async () => {
    const appImage = await installedAppImage('Wallboard-1.0.0.AppImage', '1.0.0');
    const bytes = fakeAppImage('2.0.0');
    const offer = publish('2.0.0', bytes);
    const shell = target(appImage);
    await shell.download(offer, source(), new AbortController().signal);
    await shell.install(offer);
    expect(Buffer.compare(await readFile(appImage), bytes)).toBe(0);
    expect((await readdir(dir)).filter((name) => name.endsWith('.AppImage'))).toEqual([
      'Wallboard-1.0.0.AppImage',
    ]);
  });
});

describe('where the shell updates itself', () => {
  const linux = {
    isPackaged: true,
    platform: 'linux' as const,
    env: { APPIMAGE: '/opt/Wallboard.AppImage' },
  };

  it('only from a packaged AppImage on Linux, and says why not in one log line', async () => {
    const resourcesPath = join(dir, 'resources');
    expect(whyNoShellUpdates({ ...linux, resourcesPath })).toBeNull();
    expect(whyNoShellUpdates({ ...linux, isPackaged: false, resourcesPath })).toBe('not a packaged build');
    expect(whyNoShellUpdates({ ...linux, env: {}, resourcesPath })).toBe('not run from an AppImage');
    await writeFile(join(dir, 'package-type'), 'deb');
    expect(whyNoShellUpdates({ ...linux, resourcesPath: dir })).toMatch(/system package/);
    expect(whyNoShellUpdates({ ...linux, platform: 'win32', env: {}, resourcesPath })).toBeNull();

    const made = (isPackaged: boolean) =>
      shellUpdateTarget({
        ...linux,
        isPackaged,
        resourcesPath,
        version: '1.0.0',
        dataDir: dir,
        updater: () => appImageUpdaterWithFakeApp(app),
        restart: () => undefined,
        log,
      });
    expect(made(true)?.currentVersion()).toBe('1.0.0');
    expect(made(false)).toBeNull();
    expect(log.lines).toEqual(['info the shell does not update itself here: not a packaged build']);
  });
});
