import { rm } from 'node:fs/promises';
import type { Release, ReleaseChannel, ReleaseKind } from '../../src/shared/release';
import { holdMediaQuota } from '../accounts/quotas';
import { acrossAccounts } from '../accounts/scope';
import type { ServiceContext } from '../context';
import type { Database } from '../db/database';
import { conflict } from '../domain/errors';
import { checkRelease, type ReceivedReleaseFile } from '../domain/release-manifests';
import { newId } from '../ids';
import type { MediaStorage } from '../media/storage';
import { ReleaseRepository } from '../repositories/releases';

/** How long a release may stay not ready before it counts as an upload cut off. */
const STALE_UPLOAD_MS = 60 * 60 * 1000;

/** An uploaded file of a release, received into a temporary file. */
export interface ReceivedRelease extends ReceivedReleaseFile {
  path: string;
  /** hex: the media storage's key. */
  sha256: string;
}

/**
 * Keeps a release (docs/updates.md): its files checked against its manifests first (a file that
 * does not match refuses the whole upload, and nothing is kept), then its row, not ready, then
 * each file's bytes in the media storage (kept once per content), then it is made ready: listed,
 * and offered by the rollouts and pins that name it. Should a file fail to be kept, the release
 * and what was kept of it go. Its bytes count against the account's media quota (checked with
 * the row's insert). The temporary files are the caller's to remove.
 */
export async function uploadRelease(
  ctx: ServiceContext,
  storage: MediaStorage,
  input: { kind: ReleaseKind; channel: ReleaseChannel; notes: string },
  received: readonly ReceivedRelease[],
  manifests: ReadonlyMap<string, string>,
): Promise<Release> {
  const { version, files } = checkRelease(input.kind, received, manifests);
  const id = newId('rel');
  const bytes = files.reduce((sum, file) => sum + file.size, 0);
  await ctx.db.transaction(async (tx) => {
    await holdMediaQuota(tx, bytes, false);
    await new ReleaseRepository(tx).insertPending({ id, ...input, version, bytes }, ctx.clock.now());
  });
  const byName = new Map(received.map((file) => [file.name, file]));
  try {
    for (const file of files) {
      const got = byName.get(file.name) as ReceivedRelease;
      await storage.keep({ path: got.path, sha256: got.sha256, bytes: got.size }, (tx) =>
        new ReleaseRepository(tx).addFile(id, { ...file, sha256: got.sha256 }),
      );
    }
  } catch (error) {
    await removeRelease(ctx, storage, id);
    throw error;
  }
  await ctx.changes.transaction(async (tx, emit) => {
    await new ReleaseRepository(tx).markReady(id);
    emit({ type: 'console', resource: 'releases', id });
  });
  return (await new ReleaseRepository(ctx.db).find(id)) as Release;
}

/** Removes temporary files left by an upload (kept ones were moved away already). */
export async function removeReceived(received: readonly { path: string }[]): Promise<void> {
  await Promise.all(received.map((file) => rm(file.path, { force: true })));
}

async function removeRelease(
  ctx: ServiceContext,
  storage: MediaStorage,
  id: string,
): Promise<string[] | null> {
  return removeReleaseIn(ctx.db, storage, id);
}

async function removeReleaseIn(db: Database, storage: MediaStorage, id: string): Promise<string[] | null> {
  const contents = await db.transaction(async (tx) => {
    const gone = await new ReleaseRepository(tx).delete(id);
    if (gone) await storage.releaseIn(tx, gone);
    return gone;
  });
  if (contents) await storage.released(contents);
  return contents;
}

/**
 * Removes, in every account, the releases an upload left not ready for an hour: cut off by a stop
 * of the service while its files were being kept (a release is made ready minutes at most after
 * its row, its files being received before). Their version is free again, their bytes go.
 */
export async function removeStaleUploads(db: Database, storage: MediaStorage, now: Date): Promise<number> {
  return acrossAccounts(async () => {
    const stale = await new ReleaseRepository(db).staleUploads(new Date(now.getTime() - STALE_UPLOAD_MS));
    for (const id of stale) await removeReleaseIn(db, storage, id);
    return stale.length;
  });
}

/**
 * Deletes a release and, when nothing else names them, its bytes. Refused (409) while a rollout
 * in force or a pin uses it: roll back or unpin first. False when there is no such release.
 */
export async function deleteRelease(
  ctx: ServiceContext,
  storage: MediaStorage,
  id: string,
): Promise<boolean> {
  const contents = await ctx.changes.transaction(async (tx, emit) => {
    const releases = new ReleaseRepository(tx);
    if (!(await releases.find(id))) return null;
    const { rollouts, pins } = await releases.usage(id);
    if (rollouts.length > 0 || pins.length > 0)
      throw conflict(`release ${id} is in use: roll back its rollouts and unpin its screens first`, [
        ...rollouts.map((rollout) => ({ path: `rollouts.${rollout}`, message: 'offers it' })),
        ...pins.map((tag) => ({ path: `pins.${tag}`, message: 'is pinned to it' })),
      ]);
    const gone = (await releases.delete(id)) ?? [];
    await storage.releaseIn(tx, gone);
    emit({ type: 'console', resource: 'releases', id });
    return gone;
  });
  if (contents === null) return false;
  await storage.released(contents);
  return true;
}
