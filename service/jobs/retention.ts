// What the store keeps of what only grows: the realtime event log (replayed to devices that
// reconnect) and notifications. Pruned once a minute (a job, service-jobs.ts) by count, size and
// age, so that neither fills a display computer's disk (one 1 MB metric write logs a 1 MB event).
import type { ServiceContext } from '../context';
import { EventRepository } from '../repositories/events';
import { NotificationRepository } from '../repositories/notifications';

export const RETENTION_INTERVAL_MS = 60_000;
const DAY_MS = 86_400_000;

/** One pass over both. */
export async function pruneStore(ctx: ServiceContext): Promise<void> {
  const { config } = ctx;
  await new EventRepository(ctx.db).prune(config.eventRetention, config.eventRetentionBytes);
  const before = new Date(ctx.clock.now().getTime() - config.notificationRetentionDays * DAY_MS);
  await new NotificationRepository(ctx.db).prune(config.notificationRetention, before);
}
