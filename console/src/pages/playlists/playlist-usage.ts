import type { Device } from '../../../../src/shared/device';
import type { Group } from '../../../../src/shared/group';
import type { Schedule } from '../../../../src/shared/schedule';

/** What a playlist's deletion takes it away from, as the confirmation lists it. */
export interface PlaylistUsage {
  /** Screens whose own playlist it is. */
  screens: string[];
  /** Groups whose playlist it is. */
  groups: string[];
  /** Screens' and groups' schedules that name it (an entry, or the default). */
  schedules: string[];
}

const names = (schedule: Schedule | null, id: string) =>
  schedule !== null &&
  (schedule.default_playlist_id === id || schedule.entries.some((entry) => entry.playlist_id === id));

/** Where the playlists `ids` are used, all together, each screen or group named once. */
export function playlistUsage(
  ids: ReadonlySet<string>,
  screens: readonly Pick<Device, 'tag' | 'name' | 'playlist_id' | 'schedule'>[],
  groups: readonly Pick<Group, 'name' | 'playlist_id' | 'schedule'>[],
): PlaylistUsage {
  const uses = (playlist: string | null) => playlist !== null && ids.has(playlist);
  const scheduled = (schedule: Schedule | null) => [...ids].some((id) => names(schedule, id));
  const screenName = (screen: Pick<Device, 'tag' | 'name'>) => screen.name || screen.tag;
  return {
    screens: screens.filter((screen) => uses(screen.playlist_id)).map(screenName),
    groups: groups.filter((group) => uses(group.playlist_id)).map((group) => group.name),
    schedules: [
      ...screens
        .filter((screen) => scheduled(screen.schedule))
        .map((screen) => `screen ${screenName(screen)}`),
      ...groups.filter((group) => scheduled(group.schedule)).map((group) => `group ${group.name}`),
    ],
  };
}

/** The confirmation's lines: one per kind of use, empty when nothing uses them. */
export function usageLines(usage: PlaylistUsage): string[] {
  const line = (what: string, list: string[]) =>
    list.length === 0
      ? []
      : [`${what} (${list.length}): ${list.slice(0, 8).join(', ')}${list.length > 8 ? ', …' : ''}`];
  return [
    ...line('Screens that play it, left with no playlist', usage.screens),
    ...line('Groups that play it, left with no playlist', usage.groups),
    ...line('Schedules that name it, which lose those entries', usage.schedules),
  ];
}
