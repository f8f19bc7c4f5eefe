import { mkdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../agent/atomic-file';
import type { Logger } from '../agent/ports';

/** What the token store needs of Electron's safeStorage. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  /** Linux only: which secret store backs the encryption. */
  getSelectedStorageBackend?(): string;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

const ENCRYPTED = 'token.enc';
const PLAIN = 'token';
/** Backends that protect nothing: 'basic_text' is a key hard-coded in Chromium. */
const WEAK_BACKENDS = new Set(['basic_text', 'unknown']);

/**
 * The service token, kept in main only (it never crosses the bridge). Encrypted with safeStorage
 * where a real secret store backs it (Keychain, DPAPI, libsecret, KWallet); else a plain file only
 * its user may read, which is no weaker than safeStorage's 'basic_text' and does not pretend to be.
 */
export class TokenStore {
  constructor(
    private readonly dir: string,
    private readonly safeStorage: SafeStorageLike,
    private readonly log: Logger,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  /** True when the token is stored encrypted. */
  encrypts(): boolean {
    if (!this.safeStorage.isEncryptionAvailable()) return false;
    if (this.platform !== 'linux') return true;
    const backend = this.safeStorage.getSelectedStorageBackend?.() ?? 'unknown';
    return !WEAK_BACKENDS.has(backend);
  }

  async read(): Promise<string | undefined> {
    const encrypted = await readOrNull(join(this.dir, ENCRYPTED));
    if (encrypted && this.encrypts()) {
      try {
        return this.safeStorage.decryptString(encrypted) || undefined;
      } catch (error) {
        this.log.error(`the stored token cannot be decrypted (${String(error)}); give --token again`);
        return undefined;
      }
    }
    if (encrypted) this.log.warn('the stored token is encrypted, but no secret store is available now');
    const token = (await readOrNull(join(this.dir, PLAIN)))?.toString('utf8').trim();
    // A token saved before a secret store became available moves into it.
    if (token && this.encrypts()) await this.write(token);
    return token || undefined;
  }

  /** Replaces the stored token; the other form, if any, is removed. */
  async write(token: string): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    if (this.encrypts()) {
      await writePrivate(join(this.dir, ENCRYPTED), this.safeStorage.encryptString(token));
      await removeIfPresent(join(this.dir, PLAIN));
    } else {
      await writePrivate(join(this.dir, PLAIN), Buffer.from(token, 'utf8'));
      await removeIfPresent(join(this.dir, ENCRYPTED));
    }
  }
}

/** Mode 0600 from the first byte: the temporary file is created with it, then renamed into place. */
function writePrivate(file: string, data: Buffer): Promise<void> {
  return writeFileAtomic(file, data, { mode: 0o600 });
}

async function readOrNull(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

async function removeIfPresent(file: string): Promise<void> {
  try {
    await unlink(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
