import type { Group } from '../../src/shared/group';
import { isOff, playlistAt } from '../../src/shared/schedule-rules';
import type { Schedule } from '../../src/shared/schedule';
import type { ScheduledAt, ScreenSettings, SettingSource } from '../../src/shared/screen-settings';

/**
 * A screen's settings resolved, without the service-wide web options (service/domain/web-options.ts),
 * the override in force (repositories/overrides.ts), the sync group (repositories/sync-groups.ts)
 * and the player releases offered (repositories/release-offers.ts), which the route adds.
 */
export type ResolvedSettings = Omit<ScreenSettings, 'web' | 'override' | 'sync' | 'release'>;

/** A screen's or a group's own settings, each null when not set there. */
export type OwnSettings = Pick<Group, 'playlist_id' | 'schedule' | 'power' | 'rotation' | 'time_zone'>;

/**
 * What a screen plays and how (src/shared/screen-settings.ts): each setting separately, the
 * screen's own when set, else its group's, else the default (no playlist, no schedule, never
 * off, not rotated, the screen's own zone). `group` is null for a screen in no group.
 */
export function resolveScreenSettings(
  screen: OwnSettings,
  group: (OwnSettings & { id: string }) | null,
): ResolvedSettings {
  const pick = <K extends keyof OwnSettings>(key: K): [OwnSettings[K], SettingSource] => {
    if (screen[key] !== null) return [screen[key], 'screen'];
    if (group && group[key] !== null) return [group[key], 'group'];
    return [null, 'default'];
  };
  const [playlistId, playlistSource] = pick('playlist_id');
  const [schedule, scheduleSource] = pick('schedule');
  const [power, powerSource] = pick('power');
  const [rotation, rotationSource] = pick('rotation');
  const [timeZone, timeZoneSource] = pick('time_zone');
  return {
    playlist_id: playlistId,
    schedule,
    power,
    rotation: rotation ?? 0,
    time_zone: timeZone,
    group_id: group?.id ?? null,
    sources: {
      playlist_id: playlistSource,
      schedule: scheduleSource,
      power: powerSource,
      rotation: rotationSource,
      time_zone: timeZoneSource,
    },
    playlist_ids: playlistsPlayable(schedule, playlistId),
  };
}

/**
 * Every playlist a screen may play with these settings, sorted: its schedule's entries and
 * default, and its playlist unless the schedule's default always stands in for it.
 */
export function playlistsPlayable(schedule: Schedule | null, playlistId: string | null): string[] {
  const ids = new Set(schedule?.entries.map((entry) => entry.playlist_id) ?? []);
  if (schedule?.default_playlist_id) ids.add(schedule.default_playlist_id);
  else if (playlistId) ids.add(playlistId);
  return [...ids].sort();
}

/**
 * What plays at `instant` (ms) and whether the screen is off then, read in the resolved zone,
 * else the one the screen last reported, else UTC.
 */
export function scheduledAt(
  settings: ResolvedSettings,
  reportedTimeZone: string | null,
  instant: number,
): ScheduledAt {
  const timeZone = settings.time_zone ?? reportedTimeZone ?? 'UTC';
  const playing = playlistAt(settings.schedule, settings.playlist_id, instant, timeZone);
  return {
    time: new Date(instant).toISOString(),
    time_zone: timeZone,
    playlist_id: playing.playlist_id,
    reason: playing.reason,
    entry_index: playing.entry_index,
    off: isOff(settings.power, instant, timeZone),
  };
}
