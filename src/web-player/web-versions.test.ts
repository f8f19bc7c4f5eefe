import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReleaseOffer } from '../shared/release';
import { fetchFromFolder, offerOfFolder } from './testing/release-bundles';
import { UpdateRefused } from '../agent/update-ports';
import { BUILT_IN, WebVersions } from './web-versions';

let dir: string;
let builtIn: string;

/** A bundle folder of `version`: an index.html naming it, and one asset. */
async function bundle(version: string): Promise<{ folder: string; offer: ReleaseOffer }> {
  const folder = join(dir, 'bundles', version);
  await mkdir(join(folder, 'assets'), { recursive: true });
  await writeFile(join(folder, 'index.html'), `<!doctype html><title>${version}</title>`);
  await writeFile(join(folder, 'assets', 'app.js'), `console.log(${JSON.stringify(version)});`);
  return { folder, offer: await offerOfFolder(folder, version) };
}

async function opened(): Promise<WebVersions> {
  const versions = new WebVersions(join(dir, 'player'), builtIn, '0.1.0');
  await versions.open();
  return versions;
}

const versionsDir = () => join(dir, 'player', 'versions');
const pointer = async () => JSON.parse(await readFile(join(versionsDir(), 'current'), 'utf8')) as unknown;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-versions-'));
  builtIn = join(dir, 'built-in');
  await mkdir(builtIn);
  await writeFile(join(builtIn, 'index.html'), 'built in');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('the web player versions folder', () => {
  it('serves the built-in bundle until a version is activated, then that one', async () => {
    const versions = await opened();
    expect(versions.current()).toEqual({ label: BUILT_IN, version: '0.1.0', dir: builtIn });
    const { folder, offer } = await bundle('1.0.0');
    const downloaded = await versions.download(offer, fetchFromFolder(folder));
    expect(await readFile(join(downloaded.dir, 'assets', 'app.js'), 'utf8')).toBe('console.log("1.0.0");');
    // Downloaded is not served: only the pointer says what is.
    expect(versions.current().label).toBe(BUILT_IN);
    await versions.activate('1.0.0');
    expect(versions.current()).toMatchObject({ label: '1.0.0', dir: join(versionsDir(), '1.0.0') });
    expect(await pointer()).toEqual({ current: '1.0.0', previous: null, failed: [] });
    // And a new start reads it back.
    expect((await opened()).current().label).toBe('1.0.0');
  });

  it('refuses a tampered file, keeping nothing of the download and swapping nothing', async () => {
    const versions = await opened();
    const { folder: a, offer: offerA } = await bundle('1.0.0');
    await versions.download(offerA, fetchFromFolder(a));
    await versions.activate('1.0.0');
    const { folder, offer } = await bundle('1.1.0');
    // Same size, one byte changed: only the sha512 tells.
    await writeFile(join(folder, 'assets', 'app.js'), 'console.log("1.1.1");');
    const refused = versions.download(offer, fetchFromFolder(folder));
    await expect(refused).rejects.toThrow(UpdateRefused);
    await expect(refused).rejects.toThrow(/assets\/app.js: its sha512 is not the release's/);
    expect((await readdir(versionsDir())).sort()).toEqual(['1.0.0', 'current']);
    expect(versions.current().label).toBe('1.0.0');
    expect(versions.folderOf('1.1.0')).toBeNull();
  });

  it('refuses a file longer or shorter than the offer says, and an answer that is not 200', async () => {
    const versions = await opened();
    const { folder, offer } = await bundle('1.0.0');
    await writeFile(join(folder, 'index.html'), '<!doctype html><title>1.0.0</title> and more');
    await expect(versions.download(offer, fetchFromFolder(folder))).rejects.toThrow(
      /index.html: more than the \d+ bytes/,
    );
    await writeFile(join(folder, 'index.html'), 'short');
    await expect(versions.download(offer, fetchFromFolder(folder))).rejects.toThrow(
      /index.html: 5 bytes, the release says/,
    );
    await rm(join(folder, 'index.html'));
    await expect(versions.download(offer, fetchFromFolder(folder))).rejects.toThrow(
      /index.html: the service answered 404/,
    );
    expect(await readdir(versionsDir())).toEqual([]);
  });

  it('refuses a release without index.html or with a name outside it', async () => {
    const versions = await opened();
    const { folder, offer } = await bundle('1.0.0');
    const noIndex = { ...offer, files: offer.files.filter((file) => file.name !== 'index.html') };
    await expect(versions.download(noIndex, fetchFromFolder(folder))).rejects.toThrow(
      'the release has no index.html',
    );
    const [first] = offer.files;
    if (!first) throw new Error('no file');
    const outside = { ...offer, files: [...offer.files, { ...first, name: '../evil.html' }] };
    await expect(versions.download(outside, fetchFromFolder(folder))).rejects.toThrow(
      '../evil.html is not a relative path inside the release',
    );
    expect(await readdir(versionsDir())).toEqual([]);
  });

  it('keeps the previous version for fallback and prunes older ones', async () => {
    const versions = await opened();
    for (const version of ['1.0.0', '1.1.0', '1.2.0']) {
      const { folder, offer } = await bundle(version);
      await versions.download(offer, fetchFromFolder(folder));
      await versions.activate(version);
    }
    expect((await readdir(versionsDir())).sort()).toEqual(['1.1.0', '1.2.0', 'current']);
    expect(versions.previous()?.label).toBe('1.1.0');
    expect(await pointer()).toEqual({ current: '1.2.0', previous: '1.1.0', failed: [] });
  });

  it('rejects a version: pointer back to the previous, its folder gone, never tried again for that offer', async () => {
    const versions = await opened();
    const { folder: a, offer: offerA } = await bundle('1.0.0');
    await versions.download(offerA, fetchFromFolder(a));
    await versions.activate('1.0.0');
    const { folder, offer } = await bundle('1.1.0');
    await versions.download(offer, fetchFromFolder(folder));
    await versions.activate('1.1.0');
    await versions.reject(offer);
    expect(versions.current().label).toBe('1.0.0');
    expect(versions.hasFailed(offer)).toBe(true);
    expect(versions.hasFailed({ ...offer, release_id: 'rel_other' })).toBe(false);
    expect((await readdir(versionsDir())).sort()).toEqual(['1.0.0', 'current']);
    expect(await pointer()).toEqual({ current: '1.0.0', previous: null, failed: ['rel_1_1_0@1.1.0'] });
  });

  it('discards a version downloaded but never tried, keeping those in use', async () => {
    const versions = await opened();
    for (const version of ['1.0.0', '1.1.0']) {
      const { folder, offer } = await bundle(version);
      await versions.download(offer, fetchFromFolder(folder));
    }
    await versions.activate('1.0.0');
    await versions.discard('1.1.0');
    await versions.discard('1.0.0');
    expect((await readdir(versionsDir())).sort()).toEqual(['1.0.0', 'current']);
    expect(versions.folderOf('1.1.0')).toBeNull();
  });

  it('starts on the built-in bundle from a damaged pointer, sweeping a download a crash left', async () => {
    await mkdir(join(versionsDir(), '.download-abc'), { recursive: true });
    await writeFile(join(versionsDir(), 'current'), '{"current": "1.0');
    const versions = await opened();
    expect(versions.current().label).toBe(BUILT_IN);
    expect(await readdir(versionsDir())).toEqual(['current']);
  });

  it('falls back to the previous version when the current one is missing from disk', async () => {
    const versions = await opened();
    for (const version of ['1.0.0', '1.1.0']) {
      const { folder, offer } = await bundle(version);
      await versions.download(offer, fetchFromFolder(folder));
      await versions.activate(version);
    }
    await rm(join(versionsDir(), '1.1.0'), { recursive: true });
    expect((await opened()).current().label).toBe('1.0.0');
  });
});
