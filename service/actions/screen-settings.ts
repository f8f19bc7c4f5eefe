import type { FieldIssue } from '../../src/shared/issues';
import type { Schedule } from '../../src/shared/schedule';
import { scheduleProblems } from '../../src/shared/schedule-rules';
import type { Queryable } from '../db/database';
import { invalid } from '../domain/errors';
import type { OwnSettings } from '../domain/screen-settings';
import type { Emit } from '../realtime/changes';
import { ScreenSettingsRepository } from '../repositories/screen-settings';

/**
 * The checks a screen's or a group's settings pass beyond their shape (src/shared/group.ts):
 * a schedule without overlapping entries, and every playlist they name existing.
 */

/** Refuses a schedule whose entries overlap (or that the rules find wrong otherwise), before any write. */
export function checkSchedule(schedule: Schedule | null | undefined): void {
  if (!schedule) return;
  const issues = scheduleProblems(schedule).map(({ path, message }) => ({
    path: `body.schedule.${path}`,
    message,
  }));
  if (issues.length > 0) {
    throw invalid(`the schedule is not valid: ${issues.map((issue) => issue.message).join('; ')}`, issues);
  }
}

/** Each playlist the settings name, with where the body names it. */
function namedPlaylists(settings: Partial<OwnSettings>): { id: string; path: string }[] {
  const named: { id: string; path: string }[] = [];
  if (settings.playlist_id) named.push({ id: settings.playlist_id, path: 'body.playlist_id' });
  settings.schedule?.entries.forEach((entry, index) => {
    named.push({ id: entry.playlist_id, path: `body.schedule.entries.${index}.playlist_id` });
  });
  const fallback = settings.schedule?.default_playlist_id;
  if (fallback) named.push({ id: fallback, path: 'body.schedule.default_playlist_id' });
  return named;
}

/**
 * Refuses settings that name a playlist that does not exist, in the write's transaction: the
 * playlists named stay locked until it commits, so none is deleted in between (a delete takes
 * the playlist out of every schedule, and must not miss this one).
 */
export async function checkPlaylistsNamed(tx: Queryable, settings: Partial<OwnSettings>): Promise<void> {
  const named = namedPlaylists(settings);
  const existing = await new ScreenSettingsRepository(tx).lockPlaylists(named.map(({ id }) => id));
  const missing = named.filter(({ id }) => !existing.has(id));
  if (missing.length === 0) return;
  const ids = [...new Set(missing.map(({ id }) => id))];
  const issues: FieldIssue[] = missing.map(({ path }) => ({
    path,
    message: 'must name an existing playlist',
  }));
  const what =
    ids.length === 1 ? `playlist ${ids[0]} does not exist` : `playlists ${ids.join(', ')} do not exist`;
  throw invalid(what, issues);
}

/** Whether a patch sets any of the settings a screen plays by. */
export function setsAnySetting(patch: Partial<OwnSettings>): boolean {
  return (['playlist_id', 'schedule', 'power', 'rotation', 'time_zone'] as const).some(
    (key) => patch[key] !== undefined,
  );
}

/** Tells each screen that what it plays, or how, may have changed: it fetches its settings again. */
export function announceScreens(emit: Emit, tags: readonly string[]): void {
  for (const tag of tags) emit({ type: 'device.changed', device_tag: tag });
}
