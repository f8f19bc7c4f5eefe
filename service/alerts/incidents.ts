import type { AlertTarget } from '../../src/shared/alert';

/**
 * The rules of `device.offline` incidents (docs/alerts.md), as pure functions of what one pass of
 * the alert job read: the account's screens, a rule, and that rule's firing and recently resolved
 * incidents. The pass (alerts/incident-pass.ts) writes what they decide.
 */

/** A screen as the rules see it; `lastSeen` in ms, null when it never sent a heartbeat. */
export interface WatchedDevice {
  tag: string;
  name: string;
  online: boolean;
  lastSeen: number | null;
  groupId: string | null;
}

export interface Screen {
  tag: string;
  name: string;
}

export interface RuleView {
  id: string;
  afterSeconds: number;
  target: AlertTarget;
}

/** An incident of the rule: firing, or resolved (at `resolvedAt`, ms). */
export interface IncidentView {
  id: string;
  status: 'firing' | 'resolved';
  devices: Screen[];
  gatherUntil: number;
  resolvedAt: number | null;
}

/** What a pass does for one rule. */
export interface RulePlan {
  /** Screens that newly qualify, added to the incident still gathering (`joins`) or to a new one. */
  newly: Screen[];
  /** The firing incident that is still gathering screens, which the newly qualifying join. */
  joins: string | null;
  /** Firing incidents whose every screen is back (or gone). */
  resolve: string[];
}

/**
 * How long after the first screen of an incident qualifies its alert goes out: screens that
 * qualify meanwhile join it. A site's power cut silences its screens within one heartbeat period
 * of each other, so they qualify over some seconds, not in one pass; this window makes them one
 * message. An alert is thus up to this much later than its rule's time.
 */
export const GATHER_MS = 15_000;

export function watchedBy(target: AlertTarget, devices: readonly WatchedDevice[]): WatchedDevice[] {
  if ('group_id' in target) return devices.filter((device) => device.groupId === target.group_id);
  if ('device_tag' in target) return devices.filter((device) => device.tag === target.device_tag);
  return [...devices];
}

/**
 * Whether an offline screen has been silent long enough for the rule at `now`. Silent is counted
 * from its last heartbeat (`last_seen_date`); a screen never seen never qualifies.
 *
 * Flapping: when a screen went silent again less than `after_seconds` after an incident of this
 * rule naming it was resolved (`lastResolvedAt`), it waits twice `after_seconds` before it is
 * alerted again. A screen that keeps dropping and coming back so sends one alert and recovery per
 * `after_seconds`, at most, instead of one per drop.
 */
export function qualifies(
  device: WatchedDevice,
  afterSeconds: number,
  now: number,
  lastResolvedAt: number | undefined,
): boolean {
  if (device.online || device.lastSeen === null) return false;
  const afterMs = afterSeconds * 1000;
  const flapping = lastResolvedAt !== undefined && device.lastSeen - lastResolvedAt < afterMs;
  return now - device.lastSeen >= (flapping ? 2 * afterMs : afterMs);
}

/** The window of resolved incidents a pass must read for the flapping rule: older ones cannot matter. */
export function flapWindowMs(afterSeconds: number): number {
  return 3 * afterSeconds * 1000;
}

/**
 * One rule's pass. A screen already named by a firing incident of the rule is not alerted again
 * (one alert per incident). A firing incident is resolved once each of its screens is online
 * again or deleted, and never while it is still gathering (its alert has not gone out yet).
 */
export function planRule(
  rule: RuleView,
  devices: readonly WatchedDevice[],
  incidents: readonly IncidentView[],
  now: number,
): RulePlan {
  const firing = incidents.filter((incident) => incident.status === 'firing');
  const alerted = new Set(firing.flatMap((incident) => incident.devices.map((screen) => screen.tag)));
  const lastResolved = new Map<string, number>();
  for (const incident of incidents) {
    if (incident.status !== 'resolved' || incident.resolvedAt === null) continue;
    for (const { tag } of incident.devices) {
      lastResolved.set(tag, Math.max(lastResolved.get(tag) ?? 0, incident.resolvedAt));
    }
  }
  const newly = watchedBy(rule.target, devices)
    .filter((device) => !alerted.has(device.tag))
    .filter((device) => qualifies(device, rule.afterSeconds, now, lastResolved.get(device.tag)))
    .map(({ tag, name }) => ({ tag, name }));
  const gathering = firing.find((incident) => incident.gatherUntil > now);
  const byTag = new Map(devices.map((device) => [device.tag, device]));
  const resolve = firing
    .filter((incident) => incident.gatherUntil <= now)
    .filter((incident) => incident.devices.every(({ tag }) => byTag.get(tag)?.online ?? true))
    .map((incident) => incident.id);
  return { newly, joins: gathering?.id ?? null, resolve };
}

/** Screens by tag, without repeats. */
export function mergeScreens(a: readonly Screen[], b: readonly Screen[]): Screen[] {
  const byTag = new Map([...a, ...b].map((screen) => [screen.tag, screen]));
  return [...byTag.values()].sort((x, y) => (x.tag < y.tag ? -1 : x.tag > y.tag ? 1 : 0));
}
