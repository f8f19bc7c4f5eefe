import { mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileStore } from './file-store';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-store-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('FileStore', () => {
  it('reads back what it wrote, as JSON files in a folder it creates', async () => {
    const store = new FileStore(join(dir, 'state'));
    const value = { tag: 'lobby-1', nested: { list: [1, 2, 3], flag: true, none: null } };
    await store.write('identity', value);

    expect(await store.read('identity')).toEqual(value);
    expect(JSON.parse(await readFile(join(dir, 'state', 'identity.json'), 'utf8'))).toEqual(value);
    await store.write('identity', { tag: 'lobby-2' });
    expect(await store.read('identity')).toEqual({ tag: 'lobby-2' });
    // A new store on the same folder, as after a restart.
    expect(await new FileStore(join(dir, 'state')).read('identity')).toEqual({ tag: 'lobby-2' });
  });

  it('leaves no temporary files behind and keeps the previous version as the backup', async () => {
    const store = new FileStore(dir);
    await store.write('settings', { version: 1 });
    await store.write('settings', { version: 2 });

    expect((await readdir(dir)).sort()).toEqual(['settings.json', 'settings.json.bak']);
    expect(JSON.parse(await readFile(join(dir, 'settings.json.bak'), 'utf8'))).toEqual({ version: 1 });
  });

  it('falls back to the last good copy when the file is truncated', async () => {
    const recovered: [string, string][] = [];
    const store = new FileStore(dir, (key, reason) => recovered.push([key, reason]));
    await store.write('settings', { version: 1, name: 'first' });
    await store.write('settings', { version: 2, name: 'second' });
    await truncate(join(dir, 'settings.json'), 10);

    expect(await store.read('settings')).toEqual({ version: 1, name: 'first' });
    expect(recovered).toHaveLength(1);
    expect(recovered[0]![0]).toBe('settings');
    expect(recovered[0]![1]).toMatch(/corrupt/);
  });

  it('falls back to the last good copy when the file is garbage or missing', async () => {
    const recovered: string[] = [];
    const store = new FileStore(dir, (_key, reason) => recovered.push(reason));
    await store.write('settings', { version: 1 });
    await store.write('settings', { version: 2 });

    await writeFile(join(dir, 'settings.json'), '\u0000\u0000\u0000 not json at all');
    expect(await store.read('settings')).toEqual({ version: 1 });
    await rm(join(dir, 'settings.json'));
    expect(await store.read('settings')).toEqual({ version: 1 });
    expect(recovered).toEqual([expect.stringMatching(/corrupt/), 'missing']);
  });

  it('does not let a damaged file push the last good copy out of the backup', async () => {
    const store = new FileStore(dir);
    await store.write('settings', { version: 1 });
    await store.write('settings', { version: 2 });
    await writeFile(join(dir, 'settings.json'), '{"version":');
    await store.write('settings', { version: 3 });
    expect(await store.read('settings')).toEqual({ version: 3 });

    await writeFile(join(dir, 'settings.json'), '');
    expect(await store.read('settings')).toEqual({ version: 1 });
  });

  it('gives undefined for a key never written, or when neither copy is usable', async () => {
    const recovered: string[] = [];
    const store = new FileStore(dir, (key) => recovered.push(key));
    expect(await store.read('nothing-here')).toBeUndefined();

    await writeFile(join(dir, 'broken.json'), '{');
    await writeFile(join(dir, 'broken.json.bak'), '[1,');
    expect(await store.read('broken')).toBeUndefined();
    expect(recovered).toEqual([]);
  });

  it('refuses keys that are not lower-case letters, digits and dashes', async () => {
    const store = new FileStore(dir);
    for (const key of ['../escape', 'Upper', 'a.b', 'with space', '', 'a/b']) {
      await expect(store.read(key)).rejects.toThrow(/invalid store key/);
      await expect(store.write(key, 1)).rejects.toThrow(/invalid store key/);
    }
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses values that JSON cannot hold', async () => {
    const store = new FileStore(dir);
    await expect(store.write('nothing', undefined)).rejects.toThrow(/cannot be stored as JSON/);
  });

  it('queues concurrent writes of a key so the last one wins', async () => {
    const store = new FileStore(dir);
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.write('counter', { i })));

    expect(await store.read('counter')).toEqual({ i: 19 });
    expect(JSON.parse(await readFile(join(dir, 'counter.json.bak'), 'utf8'))).toEqual({ i: 18 });
  });
});
