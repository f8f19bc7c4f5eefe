import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeFile, ReleaseServer } from './testing/release-server';
import { downloadVerified, FileCheck, releaseFileUrl, verifyFile } from './update-files';
import { UpdateRefused } from './update-ports';

let server: ReleaseServer;
let dir: string;

beforeEach(async () => {
  server = await new ReleaseServer('device-token').start();
  dir = await mkdtemp(join(tmpdir(), 'wallboard-update-files-'));
});

afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const bytes = randomBytes(300_000);
const expected = describeFile('Wallboard-2.0.0.AppImage', bytes);

function download(path = join(dir, 'out.bin'), token = 'device-token') {
  return downloadVerified(fetch, {
    url: releaseFileUrl(`${server.url}/rel/files/`, expected.name),
    token,
    expected,
    path,
  });
}

describe('downloadVerified', () => {
  it('keeps a file whose size and sha512 are the release’s, sending the device token', async () => {
    server.put('/rel/files/Wallboard-2.0.0.AppImage', bytes);
    await download();
    expect(Buffer.compare(await readFile(join(dir, 'out.bin')), bytes)).toBe(0);
    expect(server.requests.map((request) => request.authorization)).toEqual(['Bearer device-token']);
  });

  it('refuses a tampered file (same size, one byte changed) and leaves nothing behind', async () => {
    const tampered = Buffer.from(bytes);
    tampered[150_000] = (tampered[150_000] ?? 0) ^ 0xff;
    server.put('/rel/files/Wallboard-2.0.0.AppImage', tampered);
    const error = await download().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpdateRefused);
    expect((error as Error).message).toMatch(/sha512 is not the release's/);
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses a file of another length from its content-length, before reading its body', async () => {
    server.put('/rel/files/Wallboard-2.0.0.AppImage', Buffer.concat([bytes, Buffer.from('x')]));
    const error = await download().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpdateRefused);
    expect((error as Error).message).toMatch(/300001 bytes offered, the release says 300000/);
    expect(await readdir(dir)).toEqual([]);
  });

  it('tells a missing file (refused for good) from a refused token (tried again)', async () => {
    const missing = await download().catch((caught: unknown) => caught);
    expect(missing).toBeInstanceOf(UpdateRefused);
    server.put('/rel/files/Wallboard-2.0.0.AppImage', bytes);
    const unauthorized = await download(undefined, 'wrong').catch((caught: unknown) => caught);
    expect(unauthorized).toBeInstanceOf(Error);
    expect(unauthorized).not.toBeInstanceOf(UpdateRefused);
    expect((unauthorized as Error).message).toMatch(/answered 401/);
  });
});

describe('FileCheck', () => {
  it('refuses at the first byte past the expected size, not at the end', () => {
    const check = new FileCheck({ name: 'f', size: 10, sha512: expected.sha512 });
    check.update(new Uint8Array(10));
    expect(() => check.update(new Uint8Array(1))).toThrow(/more than the 10 bytes/);
  });

  it('refuses a short file by its size', () => {
    const check = new FileCheck(expected);
    check.update(bytes.subarray(0, 1000));
    expect(() => check.finish()).toThrow(/1000 bytes, the release says 300000/);
  });
});

describe('verifyFile', () => {
  it('verifies a file on disk, streaming, and refuses one that differs', async () => {
    const path = join(dir, 'kept.bin');
    await writeFile(path, bytes);
    await verifyFile(path, expected);
    await writeFile(path, Buffer.concat([bytes.subarray(0, 299_999), Buffer.from([0])]));
    await expect(verifyFile(path, expected)).rejects.toBeInstanceOf(UpdateRefused);
  });
});

describe('releaseFileUrl', () => {
  it('encodes each part of a name and keeps its folders', () => {
    expect(releaseFileUrl('http://s/rel/', 'assets/a b#1.js')).toBe('http://s/rel/assets/a%20b%231.js');
  });
});
