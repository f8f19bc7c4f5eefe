import { capFeedActor, type CapFeed, type CapFeedCreate } from '../../src/shared/cap-feed';
import type { CapAlert } from '../cap/alert';
import { planFeed, screenText } from '../cap/plan';
import type { ServiceContext } from '../context';
import type { Queryable } from '../db/database';
import type { Emit } from '../realtime/changes';
import { CapFeedRepository } from '../repositories/cap-feeds';
import { OverrideRepository } from '../repositories/overrides';
import { screensOf } from './overrides';
import { announceScreens } from './screen-settings';

/**
 * CAP feeds (docs/api/overrides.md, "CAP feeds"): the operators' side (add, remove) and what a
 * poll writes (jobs/cap-feeds.ts reads the feed, this applies it). Every override a feed raises or
 * clears tells its screens in the write's transaction, as one raised by hand does; the consoles
 * hear of feeds with the overrides (`overrides`), as the Emergency page shows both.
 */

/** The longest `last_error` kept: enough to say what went wrong. */
const ERROR_MAX = 500;

/** Clears an override in force and tells its screens; the screens it reaches now, as clearing one by hand. */
async function clearOne(tx: Queryable, emit: Emit, id: string, at: Date, by: string): Promise<void> {
  const overrides = new OverrideRepository(tx);
  const override = await overrides.find(id, at);
  if (!override || !(await overrides.clear(id, at, by))) return;
  announceScreens(emit, await screensOf(tx, override.target).catch(() => []));
  emit({ type: 'console', resource: 'overrides', id });
}

/** The target must name a group or screen of the account: a 400 naming the field otherwise. */
export async function createCapFeed(ctx: ServiceContext, input: CapFeedCreate, by: string): Promise<CapFeed> {
  return ctx.changes.transaction(async (tx, emit) => {
    await screensOf(tx, input.target);
    const name = input.name ?? new URL(input.url).host;
    const feed = await new CapFeedRepository(tx).create({ ...input, name }, ctx.clock.now(), by);
    emit({ type: 'console', resource: 'overrides', id: feed.id });
    return feed;
  });
}

/**
 * Removes a feed and clears the overrides it raised that are still in force, by `by`; false when
 * there is no such feed. The overrides stay in the audit list, naming the feed.
 */
export async function deleteCapFeed(ctx: ServiceContext, id: string, by: string): Promise<boolean> {
  const now = ctx.clock.now();
  return ctx.changes.transaction(async (tx, emit) => {
    const feeds = new CapFeedRepository(tx);
    if (!(await feeds.lock(id))) return false;
    for (const override of await new OverrideRepository(tx).ofFeed(id, now)) {
      if (override.active) await clearOne(tx, emit, override.id, now, by);
    }
    await feeds.delete(id);
    emit({ type: 'console', resource: 'overrides', id });
    return true;
  });
}

/**
 * Applies what a poll read: raises an override for each new alert the feed takes and clears
 * those whose alert was cancelled, updated or left the feed (cap/plan.ts), then notes the poll.
 * All in one transaction: a failure (the target group deleted since) changes nothing and is the
 * caller's to record. Nothing is written for a feed deleted meanwhile.
 */
export async function applyCapPoll(ctx: ServiceContext, feedId: string, alerts: CapAlert[]): Promise<void> {
  const now = ctx.clock.now();
  await ctx.changes.transaction(async (tx, emit) => {
    const feeds = new CapFeedRepository(tx);
    const feed = await feeds.lock(feedId);
    if (!feed) return;
    const overrides = new OverrideRepository(tx);
    const known = (await overrides.ofFeed(feed.id, now)).map((override) => ({
      id: override.id,
      cap_identifier: override.source?.cap_identifier ?? '',
      inForce: override.active,
    }));
    const plan = planFeed(alerts, feed, known, now.getTime());
    const by = capFeedActor(feed.name);
    for (const id of plan.clear) await clearOne(tx, emit, id, now, by);
    if (plan.raise.length > 0) {
      const screens = await screensOf(tx, feed.target);
      for (const draft of plan.raise) {
        const { cap_identifier, ...shown } = draft;
        const raised = await overrides.create(
          { ...shown, target: feed.target, image_url: null, sound_url: null },
          now,
          by,
          { cap_feed_id: feed.id, cap_identifier },
        );
        emit({ type: 'console', resource: 'overrides', id: raised.id });
      }
      announceScreens(emit, screens);
    }
    await feeds.recordPoll(feed.id, { at: now, error: null });
    // The consoles see a feed's error go away.
    if (feed.last_error !== null) emit({ type: 'console', resource: 'overrides', id: feed.id });
  });
}

/** Notes a failed poll: the feed's overrides stay as they were. */
export async function recordCapFailure(ctx: ServiceContext, feedId: string, error: string): Promise<void> {
  // What a feed sent may be quoted in it: no NUL or lone surrogate reaches the store.
  const message = screenText(error, ERROR_MAX, true);
  await ctx.changes.transaction(async (tx, emit) => {
    const feeds = new CapFeedRepository(tx);
    const before = await feeds.lock(feedId);
    if (!before || !(await feeds.recordPoll(feedId, { at: ctx.clock.now(), error: message }))) return;
    if (before.last_error !== message) emit({ type: 'console', resource: 'overrides', id: feedId });
  });
}
