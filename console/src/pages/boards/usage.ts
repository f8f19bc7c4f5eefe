import type { Device } from '../../../../src/shared/device';
import type { Group } from '../../../../src/shared/group';
import type { Playlist } from '../../../../src/shared/playlist';
import type { Schedule } from '../../../../src/shared/schedule';

/** What plays the boards: the playlists holding them, the schedules and the screens playing those. */
export interface BoardUsage {
  playlists: string[];
  /** "group Floor 3", "screen Hall": whose schedule names one of those playlists. */
  schedules: string[];
  screens: string[];
}

function scheduleNames(schedule: Schedule | null, playlists: ReadonlySet<string>): boolean {
  if (!schedule) return false;
  const named = [schedule.default_playlist_id, ...schedule.entries.map((entry) => entry.playlist_id)];
  return named.some((id) => id !== null && playlists.has(id));
}

const byName = (a: string, b: string) => a.localeCompare(b, undefined, { numeric: true });

/**
 * Who would lose the boards: deleting a board takes it out of its playlists, so every screen
 * playing one of those (its own playlist or schedule, or its group's) shows less.
 */
export function usageOf(
  boardIds: ReadonlySet<string>,
  playlists: readonly Playlist[],
  groups: readonly Group[],
  screens: readonly Device[],
): BoardUsage {
  const holding = playlists.filter((playlist) =>
    playlist.items.some((item) => item.type === 'board' && boardIds.has(item.board_id)),
  );
  const ids = new Set(holding.map((playlist) => playlist.id));
  const groupsUsing = new Map(
    groups
      .filter(
        (group) =>
          (group.playlist_id !== null && ids.has(group.playlist_id)) || scheduleNames(group.schedule, ids),
      )
      .map((group) => [group.id, group]),
  );
  const schedules = [
    ...groups.filter((group) => scheduleNames(group.schedule, ids)).map((group) => `group ${group.name}`),
    ...screens
      .filter((screen) => scheduleNames(screen.schedule, ids))
      .map((screen) => `screen ${screen.name || screen.tag}`),
  ];
  const playing = screens.filter(
    (screen) =>
      (screen.playlist_id !== null && ids.has(screen.playlist_id)) ||
      scheduleNames(screen.schedule, ids) ||
      (screen.group_id !== null && groupsUsing.has(screen.group_id)),
  );
  return {
    playlists: holding.map((playlist) => playlist.name).sort(byName),
    schedules: schedules.sort(byName),
    screens: playing.map((screen) => screen.name || screen.tag).sort(byName),
  };
}

/** "Hall, Lobby and 3 more" */
function listed(names: readonly string[], shown = 5): string {
  const head = names.slice(0, shown);
  const rest = names.length - head.length;
  if (rest > 0) return `${head.join(', ')} and ${rest} more`;
  return head.length > 1 ? `${head.slice(0, -1).join(', ')} and ${head.at(-1)}` : (head[0] ?? '');
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The lines a confirmation says about what the boards' deletion touches. */
export function usageLines(usage: BoardUsage): string[] {
  if (usage.playlists.length === 0) return ['No playlist plays them: no screen shows them.'];
  const lines = [
    `${count(usage.playlists.length, 'playlist loses', 'playlists lose')} them: ${listed(usage.playlists)}.`,
  ];
  if (usage.schedules.length > 0) {
    lines.push(
      `${count(usage.schedules.length, 'schedule plays', 'schedules play')} those: ${listed(usage.schedules)}.`,
    );
  }
  lines.push(
    usage.screens.length > 0
      ? `${count(usage.screens.length, 'screen shows', 'screens show')} them now or by schedule: ${listed(usage.screens)}.`
      : 'No screen plays those playlists.',
  );
  return lines;
}
