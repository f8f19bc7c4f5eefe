import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A stored value sealed with the key: `wbs1:<iv>:<tag>:<ciphertext>`, each base64url. */
const PREFIX = 'wbs1:';
const KEY_FILE = 'secrets.key';
const KEY_BYTES = 32;

/**
 * Scripts' secrets at rest (docs/scripts.md#secrets): AES-256-GCM under a key kept outside the
 * store, so that the store's file, its backups and its dumps hold no value in readable text.
 * Null key: values are kept as written (PostgreSQL without `WALLBOARD_SECRETS_KEY`, said at start).
 */
export function sealSecret(key: Buffer | null, value: string): string {
  if (!key) return value;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return `${PREFIX}${[iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join(':')}`;
}

/** The value of a stored secret; a sealed one needs the key it was sealed with. */
export function openSecret(key: Buffer | null, stored: string): string {
  if (!stored.startsWith(PREFIX)) return stored;
  if (!key) {
    throw new Error('a script secret is sealed, and this service has no key: give it WALLBOARD_SECRETS_KEY');
  }
  const [iv, tag, sealed] = stored
    .slice(PREFIX.length)
    .split(':')
    .map((part) => Buffer.from(part, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', key, iv as Buffer);
  decipher.setAuthTag(tag as Buffer);
  return Buffer.concat([decipher.update(sealed as Buffer), decipher.final()]).toString('utf8');
}

/**
 * The key of scripts' secrets: `WALLBOARD_SECRETS_KEY` (32 bytes, base64) when set, which every
 * node of a PostgreSQL service shares; else, for the embedded store, `secrets.key` in its data
 * folder (made on first use, 0600), beside the store's file and not in it, so `backup` leaves it
 * out; else none.
 */
export async function secretsKey(store: { dataDir?: string; databaseUrl?: string }): Promise<Buffer | null> {
  const given = process.env.WALLBOARD_SECRETS_KEY;
  if (given) {
    const key = Buffer.from(given, 'base64');
    if (key.length !== KEY_BYTES) throw new Error('WALLBOARD_SECRETS_KEY must be 32 bytes in base64');
    return key;
  }
  if (store.databaseUrl || !store.dataDir) return null;
  const file = join(store.dataDir, KEY_FILE);
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const key = randomBytes(KEY_BYTES);
    // `wx`: two starts racing keep the first key written.
    await writeFile(file, key, { mode: 0o600, flag: 'wx' }).catch(async (raced: NodeJS.ErrnoException) => {
      if (raced.code !== 'EEXIST') throw raced;
    });
    return readFile(file);
  }
}
