import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renameDurably, writeFileAtomic } from './atomic-file';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-atomic-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('creates and replaces a file, text or bytes, leaving nothing else behind', async () => {
    const file = join(dir, 'doc.json');
    await writeFileAtomic(file, '{"version":1}');
    await writeFileAtomic(file, new TextEncoder().encode('{"version":2}'));
    expect(await readFile(file, 'utf8')).toBe('{"version":2}');
    expect(await readdir(dir)).toEqual(['doc.json']);
  });

  it('gives the file the mode asked for, also over a file that had a wider one', async () => {
    const file = join(dir, 'token');
    await writeFile(file, 'old');
    await chmod(file, 0o644);
    await writeFileAtomic(file, 'secret', { mode: 0o600 });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).toBe('secret');
  });

  it('leaves no temporary file when the write cannot be put in place', async () => {
    // A folder cannot be replaced by a file.
    const target = join(dir, 'taken');
    await mkdir(target);
    await expect(writeFileAtomic(target, 'data')).rejects.toThrow();
    expect(await readdir(dir)).toEqual(['taken']);
  });

  it('touches no process signal handler, so close-with-grace and Electron keep theirs', async () => {
    const signals = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
    const before = signals.map((signal) => process.listenerCount(signal));
    const writing = writeFileAtomic(join(dir, 'state.json'), '{}');
    expect(signals.map((signal) => process.listenerCount(signal))).toEqual(before);
    await writing;
    expect(signals.map((signal) => process.listenerCount(signal))).toEqual(before);
  });
});

describe('renameDurably', () => {
  it('moves a file under its new name, and leaves it to the caller when it cannot', async () => {
    const from = join(dir, '.tmp-1');
    await writeFile(from, 'media');
    await renameDurably(from, join(dir, 'final'));
    expect(await readdir(dir)).toEqual(['final']);

    await writeFile(from, 'more');
    await expect(renameDurably(from, join(dir, 'missing-folder', 'final'))).rejects.toThrow();
    expect((await readdir(dir)).sort()).toEqual(['.tmp-1', 'final']);
  });
});
