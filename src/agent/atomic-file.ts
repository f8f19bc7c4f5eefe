// The one atomic, durable file write of the device (agent state, the shell's settings, the token,
// the media cache's commits). Written on Node's own fs rather than taken from write-file-atomic or
// atomically: both hook process signals (signal-exit during each write, when-exit from the moment
// it is imported), which in Electron's main process hands SIGTERM, SIGINT and SIGHUP from
// Electron's graceful quit to Node and, once unhooked, to the default action (a kill without
// `before-quit`); and when-exit re-raises the signal it caught, which close-with-grace takes for a
// second signal and exits without finishing the stop.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface AtomicWriteOptions {
  /** The file's mode from its first byte (the temporary file is made with it); else 0o666 less the umask. */
  mode?: number;
}

/**
 * Replaces `file` so that a reader, a crash or a power cut sees the old content or the new, never
 * a part: the data goes to a temporary file beside it, is flushed to disk, and is renamed over it;
 * then the folder is flushed so the rename itself survives. A failure leaves no temporary file.
 */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  // A name of its own per write, so writes of one file never share a temporary file.
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const handle = await open(temp, 'wx', options.mode ?? 0o666);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // The umask cannot widen the mode given at open, but a file system that ignores it there gets it now.
    if (options.mode !== undefined) await chmod(temp, options.mode);
    await renameDurably(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * Renames a file already flushed to disk over `to`, and flushes the folder so the rename is durable
 * too. `from` is left to the caller when the rename fails.
 */
export async function renameDurably(from: string, to: string): Promise<void> {
  await rename(from, to);
  await syncDir(dirname(to));
}

/** Best effort, never throwing: Windows cannot open a folder for syncing, and the data is on disk already. */
async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Only the rename might be lost on a power cut; the callers' backups and sweeps cover that.
  }
}

/**
 * Makes `dir` (and its parents) on first use and remembers it, so each write need not ask again; a
 * failure is not remembered, so the next write tries again.
 */
export function folderMaker(dir: string): () => Promise<void> {
  let made: Promise<void> | null = null;
  return () => {
    made ??= mkdir(dir, { recursive: true }).then(
      () => undefined,
      (error: unknown) => {
        made = null;
        throw error;
      },
    );
    return made;
  };
}
