// Whether a build's output is up to date, by modification times alone: the check runs before every
// `npm start`, `npm run service` and `npm run start:web`, so it reads no file's contents, it only
// lists folders and stats a few hundred files. A build's stamp is created when the build starts and kept (renamed into place, which
// keeps its time) only when it succeeds: a source saved while the build ran is newer than the
// stamp, so the next check builds again, and a failed build leaves its target stale.
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Tests never go into a bundle: changing one makes nothing stale. */
const NOT_AN_INPUT = /\.test\.tsx?$/;

async function modified(path: string): Promise<number | null> {
  return (await stat(path).catch(() => null))?.mtimeMs ?? null;
}

/**
 * The newest modification time among `paths` and, for folders, everything under them. Folders
 * count too: removing or renaming a file changes its folder's time. A missing path counts as
 * nothing.
 */
export async function newestInput(paths: readonly string[]): Promise<number> {
  const times = await Promise.all(
    paths.map(async (path) => {
      const own = await stat(path).catch(() => null);
      if (!own?.isDirectory()) return own?.mtimeMs ?? 0;
      const entries = await readdir(path, { recursive: true, withFileTypes: true });
      const under = entries
        .filter((entry) => entry.isDirectory() || !NOT_AN_INPUT.test(entry.name))
        .map((entry) => join(entry.parentPath, entry.name));
      const stamps = await Promise.all(under.map(modified));
      return Math.max(own.mtimeMs, ...stamps.map((time) => time ?? 0));
    }),
  );
  return Math.max(0, ...times);
}

export interface Freshness {
  /** Its output exists and is newer than every input. */
  fresh: boolean;
  /** Why not, for the line that says a build is made. */
  reason: string;
}

export async function freshness(
  stampFile: string,
  outputs: readonly string[],
  inputs: readonly string[],
): Promise<Freshness> {
  const times = await Promise.all(outputs.map(modified));
  if (times.includes(null)) return { fresh: false, reason: 'not built yet' };
  const built = await modified(stampFile);
  if (built === null) return { fresh: false, reason: 'not built by tools/build.ts' };
  if ((await newestInput(inputs)) > built) return { fresh: false, reason: 'sources changed' };
  return { fresh: true, reason: '' };
}

/**
 * Runs `build` and stamps it with the time it started; the stamp stays as it was when the build
 * fails.
 */
export async function stamped<T>(stampFile: string, build: () => Promise<T>): Promise<T> {
  await mkdir(dirname(stampFile), { recursive: true });
  // Per process: two builds at once (two terminals) must not rename each other's stamp.
  const started = `${stampFile}.${process.pid}.started`;
  await writeFile(started, '');
  try {
    const result = await build();
    await rename(started, stampFile);
    return result;
  } finally {
    await rm(started, { force: true });
  }
}
