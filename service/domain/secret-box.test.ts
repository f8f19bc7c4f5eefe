import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSecret, sealSecret, secretsKey } from './secret-box';

describe("scripts' secrets at rest", () => {
  it('seals a value so that it reads back with the key alone, and refuses one tampered with', () => {
    const key = randomBytes(32);
    const sealed = sealSecret(key, 'an API key');
    expect(sealed).not.toContain('an API key');
    expect(sealSecret(key, 'an API key')).not.toBe(sealed);
    expect(openSecret(key, sealed)).toBe('an API key');
    expect(() => openSecret(randomBytes(32), sealed)).toThrow();
    const flipped = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}${sealed.slice(-1)}`;
    expect(() => openSecret(key, flipped)).toThrow();
    expect(() => openSecret(null, sealed)).toThrow('give it WALLBOARD_SECRETS_KEY');
    // Without a key (PostgreSQL without WALLBOARD_SECRETS_KEY) values are kept as written.
    expect(sealSecret(null, 'plain')).toBe('plain');
    expect(openSecret(key, 'written before there was a key')).toBe('written before there was a key');
  });

  it('keeps the embedded store’s key in its data folder, made once, 0600; none for PostgreSQL', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wallboard-secrets-key-'));
    try {
      const first = await secretsKey({ dataDir: dir });
      expect(first?.length).toBe(32);
      expect((await stat(join(dir, 'secrets.key'))).mode & 0o777).toBe(0o600);
      expect(await secretsKey({ dataDir: dir })).toEqual(first);
      expect(await secretsKey({ databaseUrl: 'postgres://db/wallboard' })).toBeNull();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
