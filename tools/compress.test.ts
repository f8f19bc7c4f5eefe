import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressFolder } from './compress';

const STYLE = Array.from({ length: 500 }, (_, i) => `.row-${i} { margin: ${i % 7}px; }`).join('\n');

describe('compressFolder', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wallboard-compress-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'assets', 'index-1.css'), STYLE);
    await writeFile(join(dir, 'assets', 'sound-1.wav'), STYLE);
    // Too small to gain from either encoding.
    await writeFile(join(dir, 'tiny.js'), '0');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes a brotli and a gzip copy beside each text file that gains from them, in subfolders too', async () => {
    const total = await compressFolder(dir);
    expect((await readdir(join(dir, 'assets'))).sort()).toEqual([
      'index-1.css',
      'index-1.css.br',
      'index-1.css.gz',
      'sound-1.wav',
    ]);
    expect(await readdir(dir)).not.toContain('tiny.js.br');
    const br = await readFile(join(dir, 'assets', 'index-1.css.br'));
    const gzip = await readFile(join(dir, 'assets', 'index-1.css.gz'));
    expect(brotliDecompressSync(br).toString()).toBe(STYLE);
    expect(gunzipSync(gzip).toString()).toBe(STYLE);
    expect(br.length).toBeLessThan(gzip.length);
    expect(total).toEqual({ files: 2, bytes: STYLE.length + 1, br: br.length + 1, gzip: gzip.length + 1 });
  });
});
