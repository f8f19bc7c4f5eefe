import { randomBytes } from 'node:crypto';
import { open, readdir, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { folderMaker, renameDurably } from './atomic-file';
import type { CacheFiles } from './ports';

/** The name of a file in the media cache: what the web player and Electron serve, and nothing else. */
export const CACHE_FILE_NAME = /^[a-f0-9]{32}(\.[a-z0-9]{1,5})?$/;
const TEMP_PREFIX = '.tmp-';

/**
 * The media cache on disk: one flat folder of committed files named by the cache, plus `.tmp-*`
 * files being downloaded. A temporary file only becomes visible under its name once complete, so a
 * crash never leaves a half file that looks cached; the leftovers are swept on the first list().
 */
export class NodeCacheFiles implements CacheFiles {
  private readonly dir: string;
  private readonly ensureDir: () => Promise<void>;
  private swept = false;
  /** Temporary files being written now, which the sweep must not take for a crash's leftovers. */
  private readonly writing = new Set<string>();

  constructor(dir: string) {
    this.dir = resolve(dir);
    this.ensureDir = folderMaker(this.dir);
  }

  /** Removes the temporary file itself when `body` or the disk fails, so a failure leaves nothing behind. */
  async writeTemp(
    body: AsyncIterable<Uint8Array>,
    onBytes: (total: number) => void,
  ): Promise<{ path: string; bytes: number }> {
    await this.ensureDir();
    const path = join(this.dir, `${TEMP_PREFIX}${randomBytes(8).toString('hex')}`);
    this.writing.add(path);
    try {
      const handle = await open(path, 'wx');
      let bytes = 0;
      try {
        for await (const chunk of body) {
          await writeAll(handle, chunk);
          bytes += chunk.byteLength;
          onBytes(bytes);
        }
        await handle.sync();
      } finally {
        await handle.close();
      }
      return { path, bytes };
    } catch (error) {
      await removeFile(path);
      throw error;
    } finally {
      this.writing.delete(path);
    }
  }

  /** writeTemp flushed the file itself; renameDurably flushes the folder, so a power cut keeps the commit. */
  async commit(tempPath: string, name: string): Promise<void> {
    await renameDurably(this.tempPathOf(tempPath), this.pathOf(name));
  }

  async remove(pathOrName: string): Promise<void> {
    const path = CACHE_FILE_NAME.test(pathOrName) ? this.pathOf(pathOrName) : this.tempPathOf(pathOrName);
    await removeFile(path);
  }

  async list(): Promise<{ name: string; bytes: number }[]> {
    await this.ensureDir();
    const entries = await readdir(this.dir, { withFileTypes: true });
    const sweep = !this.swept;
    this.swept = true;
    const files: { name: string; bytes: number }[] = [];
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const path = join(this.dir, entry.name);
      if (entry.name.startsWith(TEMP_PREFIX)) {
        if (sweep && !this.writing.has(path)) await removeFile(path);
        continue;
      }
      if (!CACHE_FILE_NAME.test(entry.name)) continue;
      try {
        files.push({ name: entry.name, bytes: (await stat(path)).size });
      } catch (error) {
        // Removed between readdir and stat: it is simply not there any more.
        if (!isMissing(error)) throw error;
      }
    }
    return files;
  }

  private pathOf(name: string): string {
    if (!CACHE_FILE_NAME.test(name)) throw new Error(`invalid cache file name "${name}"`);
    return join(this.dir, name);
  }

  /** Accepts only a temporary file of this folder, so a bad argument cannot touch files elsewhere. */
  private tempPathOf(path: string): string {
    const full = resolve(this.dir, path);
    if (dirname(full) !== this.dir || !basename(full).startsWith(TEMP_PREFIX)) {
      throw new Error(`not a temporary file of the media cache: "${path}"`);
    }
    return full;
  }
}

async function writeAll(handle: FileHandle, chunk: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < chunk.byteLength) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.byteLength - offset);
    offset += bytesWritten;
  }
}

async function removeFile(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}
