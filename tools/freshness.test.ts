import { mkdir, mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freshness, newestInput, stamped } from './freshness';

let dir = '';
const at = (file: string) => join(dir, file);
/** Sets a file's modification time `seconds` from now (file systems keep whole ms at least). */
const touch = async (file: string, seconds: number) => {
  const time = new Date(Date.now() + seconds * 1000);
  await utimes(at(file), time, time);
};

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-freshness-'));
  await mkdir(at('src/deep'), { recursive: true });
  await writeFile(at('src/deep/a.ts'), '');
  await writeFile(at('src/deep/a.test.ts'), '');
  for (const path of ['src/deep/a.ts', 'src/deep/a.test.ts', 'src/deep', 'src']) await touch(path, -60);
});

afterEach(() => rm(dir, { recursive: true, force: true }));

const check = () => freshness(at('stamp'), [at('out.js')], [at('src'), at('missing.json')]);
const build = () => stamped(at('stamp'), async () => writeFile(at('out.js'), 'built'));

describe('the freshness of a build', () => {
  it('is stale until a build has stamped it, then fresh', async () => {
    expect(await check()).toEqual({ fresh: false, reason: 'not built yet' });
    await build();
    expect(await check()).toEqual({ fresh: true, reason: '' });
  });

  it('is stale while an output is missing, or without a stamp (built otherwise)', async () => {
    await build();
    await rm(at('out.js'));
    expect(await check()).toEqual({ fresh: false, reason: 'not built yet' });
    await build();
    await rm(at('stamp'));
    expect(await check()).toEqual({ fresh: false, reason: 'not built by tools/build.ts' });
  });

  it('is stale after a source changes, and not after a test does', async () => {
    await build();
    await touch('src/deep/a.test.ts', 60);
    expect((await check()).fresh).toBe(true);
    await touch('src/deep/a.ts', 60);
    expect(await check()).toEqual({ fresh: false, reason: 'sources changed' });
  });

  it('is stale after a source is removed (its folder changes)', async () => {
    await build();
    await rm(at('src/deep/a.ts'));
    await touch('src/deep', 60);
    expect((await check()).fresh).toBe(false);
  });

  it('is stale after a source saved while the build ran: the stamp is the build start', async () => {
    await stamped(at('stamp'), async () => {
      // Modification times are what is compared: the build lasts, so the file saved during it is
      // newer than its start and older than its end.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await writeFile(at('src/deep/a.ts'), 'saved meanwhile');
      await writeFile(at('out.js'), 'built');
    });
    expect(await check()).toEqual({ fresh: false, reason: 'sources changed' });
  });

  it('keeps the old stamp when a build fails', async () => {
    await build();
    await touch('src/deep/a.ts', 60);
    await expect(stamped(at('stamp'), () => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    expect((await check()).fresh).toBe(false);
  });

  it('takes the newest time of files, folders and single files; nothing for a missing path', async () => {
    await writeFile(at('single.json'), '');
    await touch('single.json', 120);
    const single = (await stat(at('single.json'))).mtimeMs;
    expect(await newestInput([at('src'), at('single.json'), at('missing')])).toBe(single);
    expect(await newestInput([at('missing')])).toBe(0);
  });
});
