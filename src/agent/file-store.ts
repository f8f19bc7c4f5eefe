import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { folderMaker, writeFileAtomic } from './atomic-file';
import type { KeyValueStore } from './ports';

const KEY = /^[a-z0-9-]+$/;

/** Called when a key was read from its backup because the main file was missing or damaged. */
export type RecoveryListener = (key: string, reason: string) => void;

type Loaded = { ok: true; value: unknown; text: string } | { ok: false; reason: string };

/**
 * Small JSON documents, one file per key, that survive a power cut at any moment: each write is
 * atomic and durable (atomic-file.ts), and the last good version is kept as `<key>.json.bak` for
 * when the main file still ends up damaged (a filesystem that lost the flushed data, a disk going
 * bad, someone editing it by hand).
 */
export class FileStore implements KeyValueStore {
  /**
   * Writes of one key queue behind each other: each reads the current file to make it the backup,
   * so two at once could both back up the same version, and the last to start might not win.
   */
  private readonly writes = new Map<string, Promise<void>>();

  private readonly ensureDir: () => Promise<void>;

  constructor(
    private readonly dir: string,
    private readonly onRecovered?: RecoveryListener,
    /** The files' mode; 0o600 where they hold a secret (a paired screen's token in its settings). */
    private readonly mode?: number,
  ) {
    this.ensureDir = folderMaker(dir);
  }

  async read(key: string): Promise<unknown> {
    const file = this.fileOf(key);
    const main = await load(file);
    if (main.ok) return main.value;
    const backup = await load(`${file}.bak`);
    if (!backup.ok) return undefined;
    this.onRecovered?.(key, main.reason);
    return backup.value;
  }

  async write(key: string, value: unknown): Promise<void> {
    const file = this.fileOf(key);
    const text = JSON.stringify(value);
    // JSON.stringify gives undefined for undefined, functions and symbols: nothing could be read back.
    if (typeof text !== 'string')
      throw new TypeError(`store key "${key}": the value cannot be stored as JSON`);
    const previous = this.writes.get(key) ?? Promise.resolve();
    const next = previous.then(() => this.replace(file, text));
    const settled = next.catch(() => undefined);
    this.writes.set(key, settled);
    void settled.then(() => {
      if (this.writes.get(key) === settled) this.writes.delete(key);
    });
    return next;
  }

  private async replace(file: string, text: string): Promise<void> {
    await this.ensureDir();
    const current = await load(file);
    // Only a readable file becomes the backup: a damaged one must not push out the last good copy.
    const options = this.mode === undefined ? {} : { mode: this.mode };
    if (current.ok) await writeFileAtomic(`${file}.bak`, current.text, options);
    await writeFileAtomic(file, text, options);
  }

  private fileOf(key: string): string {
    if (!KEY.test(key))
      throw new Error(`invalid store key "${key}": use lower-case letters, digits and dashes`);
    return join(this.dir, `${key}.json`);
  }
}

async function load(file: string): Promise<Loaded> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (isMissing(error)) return { ok: false, reason: 'missing' };
    return { ok: false, reason: `unreadable: ${(error as Error).message}` };
  }
  try {
    return { ok: true, value: JSON.parse(text), text };
  } catch (error) {
    return { ok: false, reason: `corrupt (${text.length} bytes): ${(error as Error).message}` };
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}
