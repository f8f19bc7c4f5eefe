export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1000, maxMs: 60_000 };

/**
 * The delay before retry number `attempt` (0 for the first): doubling from the base, capped,
 * then spread over its upper half by `random` so a fleet that lost its service together does not
 * come back in step.
 */
export function backoffDelay(
  attempt: number,
  random: () => number,
  policy: BackoffPolicy = DEFAULT_BACKOFF,
): number {
  const capped = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(capped / 2 + (capped / 2) * random());
}

/** The heartbeat interval with ±10% jitter. */
export function jittered(intervalMs: number, random: () => number): number {
  return Math.round(intervalMs * (0.9 + 0.2 * random()));
}
