import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Release, Rollout } from '../src/shared/release';
import type { ScreenSettings } from '../src/shared/screen-settings';
import { removeStaleUploads } from './actions/releases';
import { bucketOf } from './domain/release-offers';
import { FileMediaStorage } from './media/file-storage';
import { PostgresMediaStorage } from './media/postgres-storage';
import { ADMIN_SECRET, eventsAfter, lastEventId, startTestService, type TestService } from './test-support';
import { postRelease, sha512, webManifest, type FileSpec } from './testing/release-uploads';

// Player releases against the real service, on the store the run is for (SQLite, or PostgreSQL
// under `npm run test:postgres`): uploads checked against their manifests, rollouts to groups and
// percentages, pins, rollbacks, progress from update reports, and the files served to screens.

let service: TestService;
let mediaDir: string;

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

function webFiles(version: string): FileSpec[] {
  return [
    { name: 'index.html', content: Buffer.from(`<!doctype html><title>${version}</title>`) },
    {
      name: 'assets/index-abc.js',
      content: Buffer.from(`console.log(${JSON.stringify(version)});`.repeat(50)),
    },
  ];
}

function shellFiles(version: string): { files: FileSpec[]; feed: string } {
  const installer = Buffer.alloc(300_000, version);
  const name = `Wallboard-${version}.AppImage`;
  const feed = [
    `version: ${version}`,
    'files:',
    `  - url: ${name}`,
    `    sha512: ${sha512(installer)}`,
    `    size: ${installer.length}`,
    '    blockMapSize: 120',
    `path: ${name}`,
    `sha512: ${sha512(installer)}`,
    "releaseDate: '2026-11-27T10:00:00.000Z'",
    'releaseNotes: |',
    '  Fixes.',
    '',
  ].join('\n');
  return {
    files: [
      { name, content: installer },
      { name: `${name}.blockmap`, content: Buffer.from('map') },
    ],
    feed,
  };
}

const upload = (fields: Record<string, string>, files: FileSpec[]) =>
  postRelease(service.app, ADMIN_SECRET, fields, files);

async function uploadWeb(version: string): Promise<Release> {
  const files = webFiles(version);
  const response = await upload({ kind: 'web', channel: 'beta' }, [
    ...files,
    { name: 'release.json', content: Buffer.from(webManifest(version, files)) },
  ]);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function uploadShell(version: string): Promise<Release> {
  const { files, feed } = shellFiles(version);
  const response = await upload({ kind: 'shell', notes: `Shell ${version}` }, [
    ...files,
    { name: 'latest-linux.yml', content: Buffer.from(feed) },
  ]);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function settingsOf(tag: string): Promise<ScreenSettings['release']> {
  const response = await service.call('GET', `/devices/${tag}/settings`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ScreenSettings>().release;
}

async function made(url: string, body: unknown): Promise<{ id: string }> {
  const response = await service.call('POST', url, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function rollout(body: object): Promise<Rollout> {
  return (await made('/rollouts', body)) as Rollout;
}

async function tokenOf(tag: string): Promise<string> {
  const response = await service.call('POST', '/account/tokens', { scope: 'affiliated', device_tag: tag });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ token: string }>().token;
}

async function count(table: 'releases' | 'release_files'): Promise<number> {
  const rows = await service.db.kysely.selectFrom(table).select('account_id').execute();
  return rows.length;
}

/** The contents the media storage holds, whichever the store. */
async function contents(): Promise<string[]> {
  if (service.db.kind === 'postgres') {
    const rows = await service.db.kysely.selectFrom('media_blobs').select('sha256').execute();
    return rows.map((row) => row.sha256).sort();
  }
  return (await readdir(mediaDir)).filter((name) => name !== 'incoming').sort();
}

let lobby: string;
let hall: string;

beforeAll(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), 'wallboard-releases-test-'));
  service = await startTestService({ config: { mediaDir } });
  lobby = (await made('/groups', { name: 'Lobby' })).id;
  hall = (await made('/groups', { name: 'Hall' })).id;
  for (const tag of ['lobby-1', 'lobby-2']) await made('/devices', { tag, group_id: lobby });
  await made('/devices', { tag: 'hall-1', group_id: hall });
  await made('/devices', { tag: 'alone' });
});
afterAll(async () => {
  await service.close();
  await rm(mediaDir, { recursive: true, force: true });
});

describe('uploading a release', () => {
  it('keeps a web bundle whose files match its release.json, with their sha512s', async () => {
    const release = await uploadWeb('1.0.0');
    expect(release).toMatchObject({ kind: 'web', channel: 'beta', version: '1.0.0' });
    expect(release.files.map((file) => file.name)).toEqual(['assets/index-abc.js', 'index.html']);
    const [js] = webFiles('1.0.0');
    expect(release.files.find((file) => file.name === 'index.html')?.sha512).toBe(sha512(js!.content));
    expect((await service.call('GET', `/releases/${release.id}`)).json()).toEqual(release);
    expect((await service.call('GET', '/releases')).json<Release[]>().map((one) => one.id)).toContain(
      release.id,
    );
    const beta = (await service.call('GET', '/releases?kind=web&channel=beta')).json<Release[]>();
    expect(beta.map((one) => one.id)).toEqual([release.id]);
    expect((await service.call('GET', '/releases?channel=stable')).json()).toEqual([]);
    expect((await service.call('GET', '/releases?kind=desktop')).statusCode).toBe(400);
  });

  it("takes a shell release's version and files from electron-builder's feed", async () => {
    const release = await uploadShell('2.0.0');
    expect(release).toMatchObject({
      kind: 'shell',
      channel: 'stable',
      version: '2.0.0',
      notes: 'Shell 2.0.0',
    });
    expect(release.files.map((file) => file.name).sort()).toEqual([
      'Wallboard-2.0.0.AppImage',
      'Wallboard-2.0.0.AppImage.blockmap',
      'latest-linux.yml',
    ]);
  });

  it('refuses a file that does not match its sha512 (400 naming it) and keeps nothing', async () => {
    const before = {
      releases: await count('releases'),
      files: await count('release_files'),
      bytes: await contents(),
    };
    const { files, feed } = shellFiles('2.1.0');
    const tampered = files.map((file) =>
      file.name.endsWith('.AppImage') ? { ...file, content: Buffer.from(file.content).fill(1, 0, 1) } : file,
    );
    const response = await upload({ kind: 'shell' }, [
      ...tampered,
      { name: 'latest-linux.yml', content: Buffer.from(feed) },
    ]);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error.message).toContain('Wallboard-2.1.0.AppImage');
    expect(response.json().error.details).toEqual([
      { path: 'files.Wallboard-2.1.0.AppImage', message: 'its sha512 is not the one the manifest gives' },
    ]);
    expect({
      releases: await count('releases'),
      files: await count('release_files'),
      bytes: await contents(),
    }).toEqual(before);
    expect(await readdir(join(mediaDir, 'incoming'))).toEqual([]);
  });

  it('refuses a release missing a file its manifest names, or without a manifest', async () => {
    const files = webFiles('1.1.0');
    const missing = await upload({ kind: 'web' }, [
      files[0]!,
      { name: 'release.json', content: Buffer.from(webManifest('1.1.0', files)) },
    ]);
    expect(missing.statusCode, missing.body).toBe(400);
    expect(missing.json().error.details).toEqual([
      { path: 'files.assets/index-abc.js', message: 'named by the manifest but not uploaded' },
    ]);
    const bare = await upload({ kind: 'shell' }, shellFiles('2.2.0').files);
    expect(bare.statusCode, bare.body).toBe(400);
    expect(bare.json().error.message).toContain('latest.yml');
    const twice = await upload({ kind: 'web' }, [
      ...webFiles('1.0.0'),
      { name: 'release.json', content: Buffer.from(webManifest('1.0.0', webFiles('1.0.0'))) },
    ]);
    expect(twice.statusCode, twice.body).toBe(409);
  });

  it('refuses a body that is not multipart, and a file name climbing out of the release', async () => {
    const json = await service.call('POST', '/releases', { kind: 'web' });
    expect(json.statusCode).toBe(415);
    const climbing = await upload({ kind: 'web' }, [{ name: '../etc/passwd', content: Buffer.from('x') }]);
    expect(climbing.statusCode, climbing.body).toBe(400);
  });
});

describe('an upload cut off by a stop of the service', () => {
  it('is removed an hour on, with its bytes, and its version is free again', async () => {
    const storage =
      service.db.kind === 'postgres'
        ? await PostgresMediaStorage.open(service.db, mediaDir)
        : await FileMediaStorage.open(service.db, mediaDir);
    const cutOff = async (id: string, version: string, at: Date, content: Buffer) => {
      await service.db.kysely
        .insertInto('releases')
        .values({
          id,
          kind: 'web',
          channel: 'stable',
          version,
          notes: '',
          ready: false,
          created_at: at.toISOString(),
        })
        .execute();
      const path = join(await storage.incomingDir(), `${id}.part`);
      await writeFile(path, content);
      await storage.keep({ path, sha256: sha256(content), bytes: content.length }, (tx) =>
        tx.kysely
          .insertInto('release_files')
          .values({
            release_id: id,
            name: 'index.html',
            size: content.length,
            sha512: sha512(content),
            sha256: sha256(content),
          })
          .execute(),
      );
    };
    const now = new Date();
    const old = Buffer.from('<!doctype html><title>cut off</title>');
    await cutOff('rel_cut_old', '9.0.0', new Date(now.getTime() - 2 * 3600_000), old);
    await cutOff(
      'rel_cut_new',
      '9.0.1',
      new Date(now.getTime() - 5 * 60_000),
      Buffer.from('<!doctype html>recent'),
    );
    expect(await contents()).toContain(sha256(old));
    // Not ready: neither listed nor found.
    expect((await service.call('GET', '/releases/rel_cut_old')).statusCode).toBe(404);
    expect((await service.call('GET', '/releases')).body).not.toContain('rel_cut_old');
    expect(await removeStaleUploads(service.db, storage, now)).toBe(1);
    expect(await contents()).not.toContain(sha256(old));
    const ids = (await service.db.kysely.selectFrom('releases').select('id').execute()).map((row) => row.id);
    expect(ids).toContain('rel_cut_new');
    expect(ids).not.toContain('rel_cut_old');
    await uploadWeb('9.0.0');
  });
});

describe('rollouts and pins', () => {
  let shell2: Release;
  let shell3: Release;
  let web1: Release;

  beforeAll(async () => {
    shell2 = (await service.call('GET', '/releases'))
      .json<Release[]>()
      .find((one) => one.version === '2.0.0')!;
    web1 = (await service.call('GET', '/releases')).json<Release[]>().find((one) => one.version === '1.0.0')!;
    shell3 = await uploadShell('3.0.0');
  });

  it("reaches exactly the group's screens, and tells exactly them", async () => {
    const mark = await lastEventId(service.db);
    const made = await rollout({ release_id: shell2.id, group_ids: [lobby] });
    expect(made).toMatchObject({ kind: 'shell', version: '2.0.0', group_ids: [lobby], percentage: null });
    expect(made.progress).toEqual({ targeted: 2, on_version: 0, failed: 0, pending: 2 });
    for (const tag of ['lobby-1', 'lobby-2']) {
      const offered = await settingsOf(tag);
      expect(offered.shell).toMatchObject({
        release_id: shell2.id,
        version: '2.0.0',
        base_url: `/devices/${tag}/releases/${shell2.id}/files`,
      });
      expect(offered.shell?.files).toEqual(shell2.files);
      expect(offered.web).toBeNull();
    }
    for (const tag of ['hall-1', 'alone']) expect(await settingsOf(tag)).toEqual({ shell: null, web: null });
    const told = (await eventsAfter(service.db, mark, 'device.changed')).map(
      (event) => event.payload.device_tag,
    );
    expect(told.sort()).toEqual(['lobby-1', 'lobby-2']);
  });

  it('serves the offered files to the screen, with ranges, and to no other screen', async () => {
    const own = await tokenOf('lobby-1');
    const offer = (await settingsOf('lobby-1')).shell!;
    const { files, feed } = shellFiles('2.0.0');
    const get = (url: string, token: string, headers: Record<string, string> = {}) =>
      service.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}`, ...headers } });
    const whole = await get(`${offer.base_url}/Wallboard-2.0.0.AppImage`, own);
    expect(whole.statusCode).toBe(200);
    expect(sha512(whole.rawPayload)).toBe(sha512(files[0]!.content));
    const feedAnswer = await get(`${offer.base_url}/latest-linux.yml`, own);
    expect(feedAnswer.body).toBe(feed);
    const part = await get(`${offer.base_url}/Wallboard-2.0.0.AppImage`, own, { range: 'bytes=10-19' });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload).toEqual(files[0]!.content.subarray(10, 20));
    expect(part.headers['content-range']).toBe(`bytes 10-19/${files[0]!.content.length}`);
    // Another screen's token, a screen not offered it, a release not offered, a name not in it.
    const other = await tokenOf('hall-1');
    expect((await get(`${offer.base_url}/latest-linux.yml`, other)).statusCode).toBe(404);
    expect(
      (await get(`/devices/hall-1/releases/${shell2.id}/files/latest-linux.yml`, other)).statusCode,
    ).toBe(404);
    expect((await get(`/devices/lobby-1/releases/${shell3.id}/files/latest-linux.yml`, own)).statusCode).toBe(
      404,
    );
    expect((await get(`${offer.base_url}/nothing.bin`, own)).statusCode).toBe(404);
    expect((await get(`${offer.base_url}/latest-linux.yml`, 'wrong-token')).statusCode).toBe(401);
  });

  it("shows a screen's own token the releases and rollouts of its device only, and lets it change none", async () => {
    const own = await tokenOf('lobby-2');
    const listed = (await service.call('GET', '/releases', undefined, own)).json<Release[]>();
    expect(listed.map((release) => release.id)).toEqual([shell2.id]);
    expect((await service.call('GET', `/releases/${web1.id}`, undefined, own)).statusCode).toBe(404);
    const rollouts = (await service.call('GET', '/rollouts', undefined, own)).json<Rollout[]>();
    expect(rollouts.map((one) => one.release_id)).toEqual([shell2.id]);
    const refused = await service.call('POST', '/rollouts', { release_id: web1.id, percentage: 5 }, own);
    expect(refused.statusCode).toBe(403);
  });

  it('puts screens in percentage buckets that stay put when the share grows', async () => {
    const tags = Array.from({ length: 40 }, (_, index) => `many-${index}`);
    for (const tag of tags) await made('/devices', { tag });
    const ten = await rollout({ release_id: web1.id, percentage: 10 });
    const reached = async () => {
      const hit: string[] = [];
      for (const tag of tags) if ((await settingsOf(tag)).web?.release_id === web1.id) hit.push(tag);
      return hit;
    };
    const first = await reached();
    const ids = new Map(
      (await service.db.kysely.selectFrom('devices').select(['id', 'tag']).execute()).map((row) => [
        row.tag,
        row.id,
      ]),
    );
    expect(first).toEqual(tags.filter((tag) => bucketOf(ids.get(tag)!) < 10));
    const patched = await service.call('PATCH', `/rollouts/${ten.id}`, { percentage: 50 });
    expect(patched.statusCode, patched.body).toBe(200);
    const half = await reached();
    expect(half).toEqual(expect.arrayContaining(first));
    expect(half.length).toBeGreaterThan(first.length);
    expect(half.length).toBeLessThan(tags.length);
    const all = await service.call('PATCH', `/rollouts/${ten.id}`, { percentage: 100 });
    expect(all.json<Rollout>().progress.targeted).toBe(tags.length + 4);
    expect(await reached()).toEqual(tags);
    await service.call('POST', `/rollouts/${ten.id}/rollback`);
    expect(await reached()).toEqual([]);
  });

  it('lets a pin win over rollouts, and a rollback restore the rollout before', async () => {
    const newer = await rollout({ release_id: shell3.id, group_ids: [lobby, hall] });
    expect((await settingsOf('lobby-1')).shell?.version).toBe('3.0.0');
    expect((await settingsOf('hall-1')).shell?.version).toBe('3.0.0');
    const pinned = await service.call('PUT', '/devices/lobby-2/release-pins/shell', {
      release_id: shell2.id,
    });
    expect(pinned.statusCode, pinned.body).toBe(200);
    expect(pinned.json()).toMatchObject({ pins: { shell: shell2.id, web: null } });
    expect((await settingsOf('lobby-2')).shell?.version).toBe('2.0.0');
    const wrongKind = await service.call('PUT', '/devices/lobby-2/release-pins/web', {
      release_id: shell2.id,
    });
    expect(wrongKind.statusCode).toBe(400);

    const mark = await lastEventId(service.db);
    const back = await service.call('POST', `/rollouts/${newer.id}/rollback`);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json<Rollout>().rolled_back_at).not.toBeNull();
    expect((await settingsOf('lobby-1')).shell?.version).toBe('2.0.0');
    expect((await settingsOf('hall-1')).shell).toBeNull();
    const told = (await eventsAfter(service.db, mark, 'device.changed')).map(
      (event) => event.payload.device_tag,
    );
    // lobby-2 is pinned: its offer did not change.
    expect(told.sort()).toEqual(['hall-1', 'lobby-1']);

    expect((await service.call('DELETE', '/devices/lobby-2/release-pins/shell')).statusCode).toBe(204);
    expect((await settingsOf('lobby-2')).shell?.version).toBe('2.0.0');
    expect((await service.call('DELETE', '/devices/lobby-2/release-pins/shell')).statusCode).toBe(404);
  });

  it("counts a rollout's progress from the screens' update reports", async () => {
    const report = async (tag: string, body: object) => {
      const response = await service.call('POST', `/devices/${tag}/update-reports`, body, await tokenOf(tag));
      expect(response.statusCode, response.body).toBe(204);
    };
    await report('lobby-1', { kind: 'shell', version: '2.0.0', outcome: 'installed' });
    await report('lobby-2', {
      kind: 'shell',
      version: '2.0.0',
      outcome: 'failed',
      detail: 'sha512 mismatch',
    });
    const rollouts = (await service.call('GET', '/rollouts')).json<Rollout[]>();
    const lobbyRollout = rollouts.find((one) => one.release_id === shell2.id && one.rolled_back_at === null);
    expect(lobbyRollout?.progress).toEqual({ targeted: 2, on_version: 1, failed: 1, pending: 0 });
    const state = (await service.call('GET', '/devices/lobby-2/releases')).json();
    expect(state.reports.shell).toMatchObject({
      version: '2.0.0',
      outcome: 'failed',
      detail: 'sha512 mismatch',
    });
    const bad = await service.call('POST', '/devices/lobby-1/update-reports', {
      kind: 'shell',
      version: 'x',
      outcome: 'installed',
    });
    expect(bad.statusCode).toBe(400);
  });

  it('refuses to delete a release in use (409), and deletes its bytes once it is not', async () => {
    const held = await service.call('DELETE', `/releases/${shell2.id}`);
    expect(held.statusCode, held.body).toBe(409);
    for (const one of (await service.call('GET', '/rollouts')).json<Rollout[]>())
      if (one.release_id === shell2.id && one.rolled_back_at === null)
        await service.call('POST', `/rollouts/${one.id}/rollback`);
    const installer = shellFiles('2.0.0').files[0]!.content;
    expect(await contents()).toContain(sha256(installer));
    const gone = await service.call('DELETE', `/releases/${shell2.id}`);
    expect(gone.statusCode, gone.body).toBe(204);
    expect(await contents()).not.toContain(sha256(installer));
    expect((await service.call('GET', `/releases/${shell2.id}`)).statusCode).toBe(404);
    expect((await settingsOf('lobby-1')).shell).toBeNull();
  });
});
