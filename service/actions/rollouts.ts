import type { ReleaseKind, RolloutCreate, UpdateReport } from '../../src/shared/release';
import type { ServiceContext } from '../context';
import type { Queryable } from '../db/database';
import type { Emit } from '../realtime/changes';
import { invalid } from '../domain/errors';
import { newId } from '../ids';
import { DeviceRepository } from '../repositories/devices';
import { GroupRepository } from '../repositories/groups';
import { changedScreens, ReleaseOffersReader } from '../repositories/release-offers';
import { ReleaseRepository } from '../repositories/releases';
import { RolloutRepository } from '../repositories/rollouts';
import { announceScreens } from './screen-settings';

/**
 * Rollouts and pins (docs/updates.md). Each write works out, in its transaction, which screens'
 * offers it changed (every screen's offers before and after) and announces `device.changed` to
 * them: the event on which a screen fetches its settings again, where it finds `release`.
 */
async function announcingChanges<T>(
  ctx: ServiceContext,
  write: (tx: Queryable, emit: Emit) => Promise<T>,
): Promise<T> {
  return ctx.changes.transaction(async (tx, emit) => {
    const offers = new ReleaseOffersReader(tx);
    const before = await offers.snapshot();
    const result = await write(tx, emit);
    announceScreens(emit, changedScreens(before, await offers.snapshot()));
    emit({ type: 'console', resource: 'releases' });
    return result;
  });
}

/** Starts a rollout of a release to groups or a percentage of the screens; answers its id. */
export async function createRollout(ctx: ServiceContext, input: RolloutCreate): Promise<string> {
  const at = ctx.clock.now();
  return announcingChanges(ctx, async (tx) => {
    const release = await new ReleaseRepository(tx).find(input.release_id);
    if (!release)
      throw invalid(`release ${input.release_id} does not exist`, [
        { path: 'body.release_id', message: 'must name an existing release' },
      ]);
    const groupIds = input.group_ids ? [...new Set(input.group_ids)] : null;
    const groups = new GroupRepository(tx);
    for (const [index, id] of (groupIds ?? []).entries())
      if (!(await groups.find(id)))
        throw invalid(`group ${id} does not exist`, [
          { path: `body.group_ids.${index}`, message: 'must name an existing group' },
        ]);
    const id = newId('rol');
    // A deletion of the release committed meanwhile refuses the row (its foreign key).
    await new RolloutRepository(tx).insert(
      {
        id,
        release_id: release.id,
        kind: release.kind,
        group_ids: groupIds,
        percentage: input.percentage ?? null,
      },
      at,
    );
    return id;
  });
}

/** Changes a percentage rollout's share; false when there is no such rollout. */
export async function changeRollout(ctx: ServiceContext, id: string, percentage: number): Promise<boolean> {
  return announcingChanges(ctx, async (tx) => {
    const rollouts = new RolloutRepository(tx);
    const rollout = await rollouts.find(id);
    if (!rollout) return false;
    if (rollout.percentage === null)
      throw invalid(`rollout ${id} goes to groups, not to a percentage: start a new rollout instead`, [
        { path: 'body.percentage', message: 'only a percentage rollout has one' },
      ]);
    if (rollout.rolled_back_at !== null)
      throw invalid(`rollout ${id} was rolled back: start a new rollout instead`, [
        { path: 'body.percentage', message: 'the rollout was rolled back' },
      ]);
    await rollouts.setPercentage(id, percentage);
    return true;
  });
}

/**
 * Rolls a rollout back: it no longer applies, so the screens it reached are offered what they
 * were before it (an older rollout that reaches them, or nothing). False when there is none.
 */
export async function rollBack(ctx: ServiceContext, id: string): Promise<boolean> {
  const at = ctx.clock.now();
  return announcingChanges(ctx, async (tx) => {
    const rollouts = new RolloutRepository(tx);
    if (!(await rollouts.find(id))) return false;
    await rollouts.rollBack(id, at);
    return true;
  });
}

/** Pins a screen to a release of its kind; false when there is no such screen. */
export async function pinRelease(
  ctx: ServiceContext,
  tag: string,
  kind: ReleaseKind,
  releaseId: string,
): Promise<boolean> {
  const at = ctx.clock.now();
  return announcingChanges(ctx, async (tx) => {
    if ((await new ReleaseOffersReader(tx).sources(tag)).length === 0) return false;
    const release = await new ReleaseRepository(tx).find(releaseId);
    if (!release)
      throw invalid(`release ${releaseId} does not exist`, [
        { path: 'body.release_id', message: 'must name an existing release' },
      ]);
    if (release.kind !== kind)
      throw invalid(`release ${releaseId} is a ${release.kind} release, not a ${kind} one`, [
        { path: 'body.release_id', message: `must name a ${kind} release` },
      ]);
    await new RolloutRepository(tx).pin(tag, kind, releaseId, at);
    return true;
  });
}

/** Unpins a screen; false when there is no such screen or it was not pinned. */
export async function unpinRelease(ctx: ServiceContext, tag: string, kind: ReleaseKind): Promise<boolean> {
  return announcingChanges(ctx, (tx) => new RolloutRepository(tx).unpin(tag, kind));
}

/** Keeps a screen's update report as its last of the kind; false when there is no such screen. */
export async function recordUpdateReport(
  ctx: ServiceContext,
  tag: string,
  report: UpdateReport,
): Promise<boolean> {
  const at = ctx.clock.now();
  return ctx.changes.transaction(async (tx, emit) => {
    if (!(await new DeviceRepository(tx).findByTag(tag))) return false;
    await new RolloutRepository(tx).report(tag, report, at);
    emit({ type: 'console', resource: 'releases', id: tag });
    return true;
  });
}
