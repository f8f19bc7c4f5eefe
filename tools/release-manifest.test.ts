import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkRelease } from '../service/domain/release-manifests';
import { writeReleaseManifest } from './release-manifest';

let folder = '';
afterEach(() => rm(folder, { recursive: true, force: true }));

describe("the web player's release manifest", () => {
  it('lists every file of the bundle by its path, size and sha512, as the service checks them', async () => {
    folder = await mkdtemp(join(tmpdir(), 'wallboard-manifest-'));
    await mkdir(join(folder, 'assets'));
    const files = { 'index.html': '<!doctype html>', 'assets/index-abc.js': 'console.log(1)'.repeat(9000) };
    for (const [name, content] of Object.entries(files)) await writeFile(join(folder, name), content);
    const manifest = await writeReleaseManifest(folder, '1.2.3');
    expect(manifest.files.map((file) => file.name)).toEqual(['assets/index-abc.js', 'index.html']);
    const text = await readFile(join(folder, 'release.json'), 'utf8');
    expect(JSON.parse(text)).toEqual(manifest);
    // Written again, it does not list itself.
    expect((await writeReleaseManifest(folder, '1.2.3')).files).toHaveLength(2);
    const received = Object.entries(files).map(([name, content]) => ({
      name,
      size: Buffer.byteLength(content),
      sha512: createHash('sha512').update(content).digest('base64'),
    }));
    expect(checkRelease('web', received, new Map([['release.json', text]])).version).toBe('1.2.3');
    await expect(writeReleaseManifest(folder, 'latest')).rejects.toThrow('not a semantic version');
  });
});
