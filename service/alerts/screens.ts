import type { AlertScreen, AlertScreenTarget } from '../../src/shared/alert';
import type { Failure } from '../../src/shared/device';
import type { EventWatch } from './incidents';

/**
 * The rules of the screens' events (docs/alerts.md): `device.offline` (silent for `after_seconds`)
 * and `device.failing` (an item failed to show within the last `after_seconds`).
 */

/** A screen as the rules see it; `lastSeen` in ms, null when it never sent a heartbeat. */
export interface WatchedDevice {
  tag: string;
  name: string;
  online: boolean;
  lastSeen: number | null;
  groupId: string | null;
  /** Its last heartbeat's failures: read only for the rules of device.failing, else empty. */
  failures: readonly Failure[];
}

/** A screen as an incident names it. */
export type Screen = AlertScreen;

export interface ScreenRule {
  afterSeconds: number;
  target: AlertScreenTarget;
}

export const screenKey = (screen: Screen) => screen.tag;

export function watchedBy(target: AlertScreenTarget, devices: readonly WatchedDevice[]): WatchedDevice[] {
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

/** The window of resolved incidents a pass must read for the flapping rules: older ones cannot matter. */
export function flapWindowMs(afterSeconds: number): number {
  return 3 * afterSeconds * 1000;
}

export function offlineWatch(
  rule: ScreenRule,
  devices: readonly WatchedDevice[],
  now: number,
): EventWatch<Screen> {
  const byTag = new Map(devices.map((device) => [device.tag, device]));
  return {
    keyOf: screenKey,
    qualifying: (lastResolved) =>
      watchedBy(rule.target, devices)
        .filter((device) => qualifies(device, rule.afterSeconds, now, lastResolved.get(device.tag)))
        .map(({ tag, name }) => ({ tag, name })),
    // Online again, or deleted.
    isBack: ({ tag }) => byTag.get(tag)?.online ?? true,
  };
}

/**
 * The failures of a screen's last heartbeat that had happened at most `afterSeconds` before that
 * heartbeat: judged by the heartbeat itself, so a screen that fell silent stays as its last word
 * left it. A failure's `at` is the screen's own clock; one later than the heartbeat that carried it
 * (a clock ahead) counts as of that heartbeat.
 */
export function recentFailures(device: WatchedDevice, afterSeconds: number): Failure[] {
  if (device.lastSeen === null) return [];
  const since = device.lastSeen - afterSeconds * 1000;
  return device.failures.filter((failure) => {
    const at = Date.parse(failure.at);
    return !Number.isNaN(at) && at >= since;
  });
}

/**
 * `device.failing`: an online screen qualifies while its last heartbeat reports an item that
 * failed within `after_seconds` before that heartbeat (the screen reports a failure until the item
 * shows or downloads, so the item has not worked since). It is back once a heartbeat reports no
 * such failure; a screen that fell silent is not back until it is heard again (or deleted), and
 * one offline does not newly qualify: the offline rules speak for it.
 *
 * Flapping: a screen whose incident of this rule was resolved less than `after_seconds` ago does
 * not qualify again before that time is up, so a screen that fails on and off costs one alert and
 * one recovery per `after_seconds` at most.
 */
export function failingWatch(
  rule: ScreenRule,
  devices: readonly WatchedDevice[],
  now: number,
): EventWatch<Screen> {
  const byTag = new Map(devices.map((device) => [device.tag, device]));
  const afterMs = rule.afterSeconds * 1000;
  return {
    keyOf: screenKey,
    qualifying: (lastResolved) =>
      watchedBy(rule.target, devices).flatMap((device) => {
        const resolvedAt = lastResolved.get(device.tag);
        if (!device.online || (resolvedAt !== undefined && now - resolvedAt < afterMs)) return [];
        const failures = recentFailures(device, rule.afterSeconds);
        return failures.length > 0 ? [{ tag: device.tag, name: device.name, failures }] : [];
      }),
    isBack: ({ tag }) => {
      const device = byTag.get(tag);
      if (!device) return true;
      return device.online && recentFailures(device, rule.afterSeconds).length === 0;
    },
  };
}
