import type { Failure, Heartbeat } from '../../src/shared/device';
import type { HistoryInput } from '../repositories/device-history';

/** A failure is the same one again when its item failed at the same time (heartbeats repeat the newest). */
const failureKey = (failure: Pick<Failure, 'item' | 'at'>) => `${failure.at}\n${failure.item}`;

function previousFailures(previous: Record<string, unknown> | null): Set<string> {
  const failures = Array.isArray(previous?.failures) ? (previous.failures as Failure[]) : [];
  return new Set(failures.map(failureKey));
}

/**
 * What a heartbeat adds to the device's status history, against the diagnostics of the heartbeat
 * before it (null when none): online when it was not, what it shows when that changed, the
 * failures it had not reported yet, and its recoveries (which a heartbeat lists once, since the one
 * before). Bounded by the heartbeat's own limits (20 failures, 100 recoveries).
 */
export function heartbeatHistory(
  previous: Record<string, unknown> | null,
  heartbeat: Heartbeat,
  wasOnline: boolean,
  at: Date,
  ip: string,
): HistoryInput[] {
  const entries: HistoryInput[] = [];
  if (!wasOnline) entries.push({ at, kind: 'online', detail: `heartbeat from ${ip}` });
  if (previous?.showing !== heartbeat.showing)
    entries.push({ at, kind: 'showing', detail: heartbeat.showing });
  const known = previousFailures(previous);
  for (const failure of heartbeat.failures) {
    if (!known.has(failureKey(failure))) {
      entries.push({ at, kind: 'failure', detail: `${failure.item}: ${failure.reason}` });
    }
  }
  for (const recovery of heartbeat.recoveries) entries.push({ at, kind: 'recovery', detail: recovery });
  return entries;
}
