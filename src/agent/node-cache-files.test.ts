import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NodeCacheFiles } from './node-cache-files';

const NAME_A = `${'a'.repeat(32)}.png`;
const NAME_B = 'b'.repeat(32);

let root: string;
let dir: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'wallboard-cache-files-'));
  dir = join(root, 'media');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function* chunks(...parts: string[]): AsyncIterable<Uint8Array> {
  for (const part of parts) yield new TextEncoder().encode(part);
}

async function* failing(): AsyncIterable<Uint8Array> {
  yield new TextEncoder().encode('half of it');
  throw new Error('connection lost');
}

describe('NodeCacheFiles', () => {
  it('streams into a temporary file, reporting the running total per chunk', async () => {
    const files = new NodeCacheFiles(dir);
    const totals: number[] = [];
    const temp = await files.writeTemp(chunks('hello ', 'big ', 'world'), (total) => totals.push(total));

    expect(temp.bytes).toBe(15);
    expect(totals).toEqual([6, 10, 15]);
    expect(dirname(temp.path)).toBe(dir);
    expect(basename(temp.path)).toMatch(/^\.tmp-/);
    expect(await readFile(temp.path, 'utf8')).toBe('hello big world');
    expect(await files.list()).toEqual([]);
  });

  it('commits a temporary file under its name and lists it with its size', async () => {
    const files = new NodeCacheFiles(dir);
    const a = await files.writeTemp(chunks('image bytes'), () => undefined);
    const b = await files.writeTemp(chunks(''), () => undefined);
    await files.commit(a.path, NAME_A);
    await files.commit(b.path, NAME_B);

    expect(await readFile(join(dir, NAME_A), 'utf8')).toBe('image bytes');
    expect((await files.list()).sort((x, y) => x.name.localeCompare(y.name))).toEqual([
      { name: NAME_A, bytes: 11 },
      { name: NAME_B, bytes: 0 },
    ]);
    expect((await readdir(dir)).sort()).toEqual([NAME_A, NAME_B]);
  });

  it('removes committed files by name and temporary files by path, ignoring missing ones', async () => {
    const files = new NodeCacheFiles(dir);
    const a = await files.writeTemp(chunks('a'), () => undefined);
    await files.commit(a.path, NAME_A);
    const temp = await files.writeTemp(chunks('t'), () => undefined);

    await files.remove(NAME_A);
    await files.remove(temp.path);
    await files.remove(NAME_A);
    await files.remove(temp.path);
    expect(await readdir(dir)).toEqual([]);
  });

  it('leaves nothing behind when the body fails midway', async () => {
    const files = new NodeCacheFiles(dir);
    await expect(files.writeTemp(failing(), () => undefined)).rejects.toThrow('connection lost');
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses names outside the cache pattern and paths outside its folder', async () => {
    const files = new NodeCacheFiles(dir);
    const temp = await files.writeTemp(chunks('x'), () => undefined);
    for (const name of [
      '../evil',
      'A'.repeat(32),
      'a'.repeat(31),
      `${'a'.repeat(32)}.toolong`,
      `${'a'.repeat(32)}.PNG`,
    ]) {
      await expect(files.commit(temp.path, name)).rejects.toThrow(/invalid cache file name/);
    }
    await expect(files.commit(join(root, '.tmp-elsewhere'), NAME_A)).rejects.toThrow(/not a temporary file/);
    await expect(files.remove(join(root, 'outside.txt'))).rejects.toThrow(/not a temporary file/);
    await expect(files.remove('notes.txt')).rejects.toThrow(/not a temporary file/);
    expect(await readFile(temp.path, 'utf8')).toBe('x');
  });

  it('sweeps temporary files left by a crash on the first list, and ignores foreign files', async () => {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, '.tmp-0123456789abcdef'), 'left by a crash');
    await writeFile(join(dir, NAME_B), 'kept');
    await writeFile(join(dir, 'README.txt'), 'not ours');
    await mkdir(join(dir, 'sub'));
    const files = new NodeCacheFiles(dir);

    expect(await files.list()).toEqual([{ name: NAME_B, bytes: 4 }]);
    expect((await readdir(dir)).sort()).toEqual(['README.txt', NAME_B, 'sub']);
  });

  it('does not sweep a temporary file that is being written', async () => {
    const files = new NodeCacheFiles(dir);
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let firstChunk = (): void => undefined;
    const started = new Promise<void>((resolve) => (firstChunk = resolve));
    async function* slow(): AsyncIterable<Uint8Array> {
      yield new TextEncoder().encode('first ');
      await gate;
      yield new TextEncoder().encode('second');
    }
    const writing = files.writeTemp(slow(), () => firstChunk());
    await started;

    expect(await files.list()).toEqual([]);
    release();
    const temp = await writing;
    expect(await readFile(temp.path, 'utf8')).toBe('first second');
  });
});
