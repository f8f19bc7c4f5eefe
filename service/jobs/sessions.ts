import { pruneSessions } from '../actions/users';
import type { ServiceContext } from '../context';
import { every, type Job } from './jobs';

/** Every 10 minutes: an expired session is refused at once; this only frees its row. */
export const SESSION_PRUNE_INTERVAL_MS = 10 * 60_000;

export function sessionPruning(ctx: ServiceContext): Job {
  return every(ctx, 'pruning sessions', SESSION_PRUNE_INTERVAL_MS, () => pruneSessions(ctx));
}
