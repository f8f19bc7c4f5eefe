import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_SECRET, startTestService, type TestService } from '../../service/test-support';
import { multipart } from '../../service/testing/multipart';
import type { DeviceReleases, Release } from '../shared/release';
import type { DeviceAgent } from '../agent/agent';
import { createNodeAgent } from '../agent/node-agent';
import { latestYml, describeFile } from '../agent/testing/release-server';
import { nodeAgentOptions } from '../agent/testing/real-service';
import { FakeApp } from './testing/fake-electron';
import { appImageUpdaterWithFakeApp } from './testing/fake-updater';
import { ShellUpdateTarget } from './updater';

// The whole way of a shell release against the real service: uploaded and pinned by an operator,
// offered in the screen's settings, read and downloaded by electron-updater's own code (with the
// fake Electron's app) from the service's files with the screen's token, verified, installed (the
// AppImage replaced in place) and reported; and a release whose stored bytes were tampered with
// refused before anything is installed, and reported failed.

let service: TestService;
let port: number;
let mediaDir: string;
let dir: string;
let agent: DeviceAgent | null = null;
let restarts: string[];

const sha512 = (bytes: Buffer) => createHash('sha512').update(bytes).digest('base64');

/** A stand-in AppImage that electron-updater can run as it installs one: a script that exits. */
function fakeAppImage(version: string): Buffer {
  const padding = randomBytes(150_000).map((byte) => (byte === 10 ? 32 : byte));
  return Buffer.concat([Buffer.from(`#!/bin/sh\nexit 0\n# ${version}\n#`), padding]);
}

async function uploadShell(version: string, installer: Buffer): Promise<Release> {
  const name = `Wallboard-${version}.AppImage`;
  const feed = latestYml(version, [describeFile(name, installer)]);
  const body = multipart([
    { name: 'kind', content: 'shell' },
    { name: 'file', filename: name, content: installer },
    { name: 'file', filename: 'latest-linux.yml', content: Buffer.from(feed) },
  ]);
  const response = await service.app.inject({
    method: 'POST',
    url: '/releases',
    headers: { ...body.headers, authorization: `Bearer ${ADMIN_SECRET}` },
    payload: body.payload,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Release>();
}

async function pin(tag: string, release: Release): Promise<void> {
  const response = await service.call('PUT', `/devices/${tag}/release-pins/shell`, {
    release_id: release.id,
  });
  expect(response.statusCode, response.body).toBe(200);
}

async function releasesOf(tag: string): Promise<DeviceReleases> {
  return (await service.call('GET', `/devices/${tag}/releases`)).json<DeviceReleases>();
}

/** Changes one byte of a stored content, on the disk or in PostgreSQL: what the service serves is no longer what was uploaded. */
async function tamperStored(bytes: Buffer): Promise<void> {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const tampered = Buffer.from(bytes);
  tampered[1000] = (tampered[1000] ?? 0) ^ 0x01;
  if (service.db.kind === 'postgres') {
    await service.db.kysely
      .updateTable('media_chunks')
      .set({ bytes: tampered.subarray(0, (await chunkSize(sha256)) ?? tampered.length) })
      .where('sha256', '=', sha256)
      .where('seq', '=', 0)
      .execute();
  } else {
    await writeFile(join(mediaDir, sha256), tampered);
  }
}

async function chunkSize(sha256: string): Promise<number | undefined> {
  const row = await service.db.kysely
    .selectFrom('media_blobs')
    .select('chunk_bytes')
    .where('sha256', '=', sha256)
    .executeTakeFirst();
  return row?.chunk_bytes;
}

/** A screen's agent whose shell runs `version` from the AppImage at `appImage`. */
async function startScreen(
  tag: string,
  token: string,
  version: string,
  appImage: string,
): Promise<DeviceAgent> {
  const app = new FakeApp();
  app.isPackaged = true;
  app.version = version;
  app.setPath('userData', join(dir, 'user-data'));
  const options = nodeAgentOptions({
    port,
    token,
    tag,
    name: tag,
    dataDir: join(dir, 'agent'),
    heartbeatSeconds: 30,
  });
  const shell = new ShellUpdateTarget({
    createUpdater: () => appImageUpdaterWithFakeApp(app),
    version,
    platform: 'linux',
    dataDir: join(dir, 'user-data', 'updates'),
    appImage,
    restart: (reason) => restarts.push(reason),
    log: options.log,
  });
  const made = createNodeAgent({ ...options, appVersion: version, updateTargets: [shell] }).agent;
  await made.start();
  return made;
}

async function deviceToken(tag: string): Promise<string> {
  const response = await service.call('POST', '/account/tokens', { scope: 'affiliated', device_tag: tag });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ token: string }>().token;
}

const wait = { timeout: 20_000, interval: 50 };

beforeAll(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), 'wallboard-updater-media-'));
  service = await startTestService({ config: { mediaDir } });
  await service.app.listen({ port: 0, host: '127.0.0.1' });
  const address = service.app.server.address();
  if (!address || typeof address === 'string') throw new Error('the service is not listening');
  port = address.port;
});

afterAll(async () => {
  await service.close();
  await rm(mediaDir, { recursive: true, force: true });
});

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-updater-'));
  restarts = [];
  vi.stubEnv('XDG_CACHE_HOME', join(dir, 'cache'));
});

afterEach(async () => {
  await agent?.stop();
  agent = null;
  vi.unstubAllEnvs();
  await rm(dir, { recursive: true, force: true });
});

async function installedAppImage(version: string): Promise<{ path: string; bytes: Buffer }> {
  const path = join(dir, 'Wallboard.AppImage');
  const bytes = fakeAppImage(version);
  await writeFile(path, bytes);
  await chmod(path, 0o755);
  vi.stubEnv('APPIMAGE', path);
  return { path, bytes };
}

describe('a shell release from the real service', () => {
  it('is downloaded, verified and installed, and reported installed once the new version runs', async () => {
    const tag = 'upd-good';
    expect((await service.call('POST', '/devices', { tag })).statusCode).toBe(201);
    const installer = fakeAppImage('2.0.0');
    await pin(tag, await uploadShell('2.0.0', installer));
    const token = await deviceToken(tag);
    const appImage = await installedAppImage('1.0.0');

    agent = await startScreen(tag, token, '1.0.0', appImage.path);
    // Nothing on screen yet (no renderer): an allowed moment, so it installs as soon as it is verified.
    await vi.waitFor(() => expect(restarts).toEqual(['installing the shell 2.0.0']), wait);
    expect(Buffer.compare(await readFile(appImage.path), installer)).toBe(0);
    await vi.waitFor(
      async () => expect((await releasesOf(tag)).reports.shell?.outcome).toBe('downloading'),
      wait,
    );

    // The restart: the new version starts and tells the service.
    await agent.stop();
    agent = await startScreen(tag, token, '2.0.0', appImage.path);
    await vi.waitFor(async () => {
      const report = (await releasesOf(tag)).reports.shell;
      expect(report).toMatchObject({ version: '2.0.0', outcome: 'installed', detail: 'from 1.0.0' });
    }, wait);
  });

  it('is refused, installs nothing and is reported failed when its stored installer was tampered with', async () => {
    const tag = 'upd-tampered';
    expect((await service.call('POST', '/devices', { tag })).statusCode).toBe(201);
    const installer = fakeAppImage('2.1.0');
    const release = await uploadShell('2.1.0', installer);
    expect(release.files.find((file) => file.name.endsWith('.AppImage'))?.sha512).toBe(sha512(installer));
    await tamperStored(installer);
    await pin(tag, release);
    const token = await deviceToken(tag);
    const appImage = await installedAppImage('1.0.0');

    agent = await startScreen(tag, token, '1.0.0', appImage.path);
    await vi.waitFor(async () => {
      const report = (await releasesOf(tag)).reports.shell;
      expect(report).toMatchObject({ version: '2.1.0', outcome: 'failed' });
      expect(report?.detail).toMatch(/sha512 checksum mismatch/);
    }, wait);
    expect(restarts).toEqual([]);
    expect(Buffer.compare(await readFile(appImage.path), appImage.bytes)).toBe(0);
  });
});
