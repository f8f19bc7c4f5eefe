import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeSafeStorage } from './testing/fake-electron';
import { TokenStore } from './token-store';

let dir: string;
let errors: string[];
const log = () => ({
  info: () => undefined,
  warn: (m: string) => errors.push(m),
  error: (m: string) => errors.push(m),
});
const TOKEN = 'wb_secret_token_1234567890';

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-token-'));
  errors = [];
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('the token store', () => {
  it('encrypts the token with safeStorage where a real secret store backs it', async () => {
    const safe = new FakeSafeStorage();
    const store = new TokenStore(dir, safe, log(), 'linux');
    expect(store.encrypts()).toBe(true);
    await store.write(TOKEN);
    expect(await readdir(dir)).toEqual(['token.enc']);
    const raw = await readFile(join(dir, 'token.enc'), 'utf8');
    expect(raw).not.toContain(TOKEN);
    expect((await stat(join(dir, 'token.enc'))).mode & 0o777).toBe(0o600);
    expect(await new TokenStore(dir, safe, log(), 'linux').read()).toBe(TOKEN);
  });

  it("falls back to a file only its user may read on Linux's basic_text backend", async () => {
    const safe = new FakeSafeStorage();
    safe.backend = 'basic_text';
    const store = new TokenStore(dir, safe, log(), 'linux');
    expect(store.encrypts()).toBe(false);
    await store.write(TOKEN);
    expect(await readdir(dir)).toEqual(['token']);
    expect((await stat(join(dir, 'token'))).mode & 0o777).toBe(0o600);
    expect(await readFile(join(dir, 'token'), 'utf8')).toBe(TOKEN);
    expect(await store.read()).toBe(TOKEN);
  });

  it('falls back to the file where encryption is not available at all', async () => {
    const safe = new FakeSafeStorage();
    safe.available = false;
    const store = new TokenStore(dir, safe, log(), 'win32');
    await store.write(TOKEN);
    expect(await readdir(dir)).toEqual(['token']);
    expect(await store.read()).toBe(TOKEN);
  });

  it('uses safeStorage on Windows and macOS whatever Linux backends say', () => {
    const safe = new FakeSafeStorage();
    safe.backend = 'basic_text';
    expect(new TokenStore(dir, safe, log(), 'darwin').encrypts()).toBe(true);
  });

  it('moves a plain token into the secret store once one is there', async () => {
    const safe = new FakeSafeStorage();
    safe.backend = 'basic_text';
    await new TokenStore(dir, safe, log(), 'linux').write(TOKEN);
    safe.backend = 'kwallet5';
    expect(await new TokenStore(dir, safe, log(), 'linux').read()).toBe(TOKEN);
    expect(await readdir(dir)).toEqual(['token.enc']);
  });

  it('says so, and reads nothing, when the stored token cannot be decrypted', async () => {
    await writeFile(join(dir, 'token.enc'), 'garbage');
    expect(await new TokenStore(dir, new FakeSafeStorage(), log(), 'linux').read()).toBeUndefined();
    expect(errors).toEqual([expect.stringMatching(/cannot be decrypted/)]);
  });
});
