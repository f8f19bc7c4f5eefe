// The web player's versions folder (docs/updates.md, "The web player"): every bundle the player
// may serve, each verified file by file before it is there at all, and a pointer naming the one
// served. The bundle the build made (dist/renderer) is the built-in version, always there.
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import { Readable, Transform } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import { renameDurably, writeFileAtomic } from '../agent/atomic-file';
import { FileCheck } from '../agent/update-files';
import { UpdateRefused } from '../agent/update-ports';
import {
  releaseFileNameSchema,
  releaseVersionSchema,
  type ReleaseFile,
  type ReleaseOffer,
} from '../shared/release';

/** The label of the bundle the build made, in the player's URLs (`/v/built-in/`) and the pointer. */
export const BUILT_IN = 'built-in';

/** The pointer (`versions/current`): the version served, and the one before it, kept for fallback. */
interface Pointer {
  current: string | null;
  previous: string | null;
  /** Offers a version of which failed here (`<release_id>@<version>`): never tried again. */
  failed: string[];
}

/** The pointer file's content, or null for one that is not a pointer (damaged: the built-in bundle is served). */
function parsePointer(text: string): Pointer | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { current, previous, failed = [] } = value as Record<string, unknown>;
  const isVersion = (version: unknown): version is string | null =>
    version === null || releaseVersionSchema.safeParse(version).success;
  if (!isVersion(current) || !isVersion(previous)) return null;
  if (!Array.isArray(failed) || !failed.every((key) => typeof key === 'string')) return null;
  return { current, previous, failed: failed.slice(-100) };
}

/** One version the player can serve: its label in URLs, its version, its folder. */
export interface WebVersion {
  /** `built-in`, or the release's version. */
  label: string;
  /** The version it reports: the release's, or the app's for the built-in one. */
  version: string;
  dir: string;
}

/** Fetches one file of a release (`base_url/name`, with the device's token). */
export type FetchReleaseFile = (offer: ReleaseOffer, file: ReleaseFile) => Promise<Response>;

/** The bytes passed through, checked as they go by (update-files.ts): refused at the first byte too many. */
function verifier(file: ReleaseFile): Transform {
  const check = new FileCheck(file);
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      try {
        check.update(chunk);
        done(null, chunk);
      } catch (error) {
        done(error as Error);
      }
    },
    flush(done) {
      try {
        check.finish();
        done();
      } catch (error) {
        done(error as Error);
      }
    },
  });
}

/**
 * The versions folder of a web player's data folder:
 *
 *   versions/<version>/      a verified bundle
 *   versions/.download-*     a download under way (removed at start: a crash left it)
 *   versions/current         the pointer (JSON, written atomically)
 */
export class WebVersions {
  private pointer: Pointer = { current: null, previous: null, failed: [] };
  private readonly root: string;
  /** Versions downloaded and verified but not yet pointed at (on trial). */
  private staged: string[] = [];

  constructor(
    dataDir: string,
    /** dist/renderer: the last resort, always there. */
    private readonly builtInDir: string,
    /** The app's version, what the built-in bundle reports. */
    private readonly appVersion: string,
  ) {
    this.root = join(dataDir, 'versions');
  }

  /** Reads the pointer (a damaged or missing one: the built-in bundle) and sweeps left-over downloads. */
  async open(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    const text = await readFile(join(this.root, 'current'), 'utf8').catch(() => null);
    this.pointer = (text === null ? null : parsePointer(text)) ?? {
      current: null,
      previous: null,
      failed: [],
    };
    for (const name of await readdir(this.root)) {
      if (name.startsWith('.download-')) await rm(join(this.root, name), { recursive: true, force: true });
    }
    // A pointer naming a folder that is gone (removed by hand) falls back to what is there.
    if (this.pointer.current !== null && !(await this.intact(this.pointer.current))) {
      this.pointer = { ...this.pointer, current: this.pointer.previous, previous: null };
      if (this.pointer.current !== null && !(await this.intact(this.pointer.current)))
        this.pointer = { ...this.pointer, current: null };
    }
    if (this.pointer.previous !== null && !(await this.intact(this.pointer.previous)))
      this.pointer = { ...this.pointer, previous: null };
  }

  /** The version the pointer names (the built-in one when none). */
  current(): WebVersion {
    return this.describe(this.pointer.current);
  }

  /** The version kept for fallback, if any. */
  previous(): WebVersion | null {
    return this.pointer.previous === null ? null : this.describe(this.pointer.previous);
  }

  /** The folder of a label, when that version is here (the built-in one always is). */
  folderOf(label: string): string | null {
    if (label === BUILT_IN) return this.builtInDir;
    if (!releaseVersionSchema.safeParse(label).success) return null;
    const kept = [this.pointer.current, this.pointer.previous, ...this.staged];
    return kept.includes(label) ? join(this.root, label) : null;
  }

  /** Whether this offer failed here before. */
  hasFailed(offer: Pick<ReleaseOffer, 'release_id' | 'version'>): boolean {
    return this.pointer.failed.includes(`${offer.release_id}@${offer.version}`);
  }

  /**
   * Downloads every file of the offer into a temporary folder, each verified by its size and
   * sha512 as it streams, then renames the folder into place. Any failure removes the temporary
   * folder and throws (`UpdateRefused` when the release itself is wrong): nothing served changes.
   */
  async download(offer: ReleaseOffer, fetchFile: FetchReleaseFile): Promise<WebVersion> {
    releaseVersionSchema.parse(offer.version);
    if (!offer.files.some((file) => file.name === 'index.html'))
      throw new UpdateRefused('the release has no index.html');
    if (offer.version === this.pointer.current) return this.current();
    const temp = join(this.root, `.download-${randomBytes(6).toString('hex')}`);
    const target = join(this.root, offer.version);
    try {
      for (const file of offer.files) {
        if (!releaseFileNameSchema.safeParse(file.name).success)
          throw new UpdateRefused(`${file.name} is not a relative path inside the release`);
        const path = normalize(join(temp, file.name));
        if (!path.startsWith(temp + sep)) throw new UpdateRefused(`${file.name} is outside the release`);
        const response = await fetchFile(offer, file);
        if (!response.ok || !response.body) {
          await response.body?.cancel().catch(() => undefined);
          // The release has no such file: asking again finds none either. Anything else may pass.
          const message = `${file.name}: the service answered ${response.status}`;
          throw response.status === 404 ? new UpdateRefused(message) : new Error(message);
        }
        await mkdir(dirname(path), { recursive: true });
        await pipeline(
          Readable.fromWeb(response.body as ReadableStream),
          verifier(file),
          createWriteStream(path, { flags: 'wx' }),
        );
      }
      // A folder of that version not pointed at (an earlier trial, the previous one offered again)
      // is replaced by the one just verified.
      if (offer.version === this.pointer.previous) this.pointer = { ...this.pointer, previous: null };
      await rm(target, { recursive: true, force: true });
      await renameDurably(temp, target);
    } catch (error) {
      await rm(temp, { recursive: true, force: true });
      throw error;
    }
    if (!this.staged.includes(offer.version)) this.staged.push(offer.version);
    return this.describe(offer.version);
  }

  /** Points at `version` (downloaded before), keeping the one it replaces as the previous; prunes the rest. */
  async activate(version: string): Promise<void> {
    const before = this.pointer.current;
    if (before === version) return;
    await this.write({ ...this.pointer, current: version, previous: before });
    this.staged = this.staged.filter((staged) => staged !== version);
    await this.prune();
  }

  /**
   * Gives up a version on trial or in force: it is removed, marked failed for its offer, and the
   * pointer goes back to the previous version when it named it.
   */
  async reject(offer: Pick<ReleaseOffer, 'release_id' | 'version'>): Promise<void> {
    const failed = [...this.pointer.failed, `${offer.release_id}@${offer.version}`].slice(-100);
    const pointer =
      this.pointer.current === offer.version
        ? { current: this.pointer.previous, previous: null, failed }
        : { ...this.pointer, failed };
    await this.write(pointer);
    this.staged = this.staged.filter((staged) => staged !== offer.version);
    if (pointer.current !== offer.version && pointer.previous !== offer.version)
      await rm(join(this.root, offer.version), { recursive: true, force: true });
  }

  /** Forgets a version downloaded but never tried (another offer replaced it): its folder goes. */
  async discard(version: string): Promise<void> {
    if (!this.staged.includes(version)) return;
    this.staged = this.staged.filter((staged) => staged !== version);
    if (version !== this.pointer.current && version !== this.pointer.previous)
      await rm(join(this.root, version), { recursive: true, force: true });
  }

  /** Removes every version folder but the current and the previous ones (and those on trial). */
  async prune(): Promise<void> {
    const keep = new Set([this.pointer.current, this.pointer.previous, ...this.staged]);
    for (const name of await readdir(this.root)) {
      if (name === 'current' || name.startsWith('.') || name.endsWith('.tmp') || keep.has(name)) continue;
      await rm(join(this.root, name), { recursive: true, force: true });
    }
  }

  private async write(pointer: Pointer): Promise<void> {
    await writeFileAtomic(join(this.root, 'current'), `${JSON.stringify(pointer)}\n`);
    this.pointer = pointer;
  }

  private async intact(version: string): Promise<boolean> {
    const index = await readFile(join(this.root, version, 'index.html')).catch(() => null);
    return index !== null;
  }

  private describe(version: string | null): WebVersion {
    return version === null
      ? { label: BUILT_IN, version: this.appVersion, dir: this.builtInDir }
      : { label: version, version, dir: join(this.root, version) };
  }
}
