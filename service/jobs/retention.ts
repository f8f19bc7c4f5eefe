// What the store keeps of what only grows: the realtime event log (replayed to devices that
// reconnect), notifications and the audit trail (by age alone: docs/audit.md). Pruned once a minute (a job, service-jobs.ts) by count, size and
// age, so that neither fills a display computer's disk (one 1 MB metric write logs a 1 MB event).
import type { ServiceContext } from '../context';
import { AuditLogRepository } from '../repositories/audit-log';
import { EventRepository } from '../repositories/events';
import { NotificationRepository } from '../repositories/notifications';

export const RETENTION_INTERVAL_MS = 60_000;
const DAY_MS = 86_400_000;

/** One pass over all three. */
export async function pruneStore(ctx: ServiceContext): Promise<void> {
  const { config } = ctx;
  await new EventRepository(ctx.db).prune(config.eventRetention, config.eventRetentionBytes);
  const before = new Date(ctx.clock.now().getTime() - config.notificationRetentionDays * DAY_MS);
  await new NotificationRepository(ctx.db).prune(config.notificationRetention, before);
  // Across accounts: the job runs outside any (accounts/scope.ts), on the node holding the lease.
  const auditBefore = new Date(ctx.clock.now().getTime() - config.auditRetentionDays * DAY_MS);
  await new AuditLogRepository(ctx.db).prune(auditBefore);
}
