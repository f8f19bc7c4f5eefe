import { sql } from 'kysely';
import type { Schedule } from '../../src/shared/schedule';
import type { Queryable } from '../db/database';
import { fromJson, lockRows, toJson } from '../db/dialect';
import { resolveScreenSettings, type ResolvedSettings } from '../domain/screen-settings';
import { settingsFromRow } from './setting-columns';

/** Values per `in (...)` list: one query for a fleet of a thousand screens. */
const CHUNK = 1000;

/** A screen's resolved settings, and the zone it last reported (where schedules are read without one). */
export interface ScreenSettingsRead {
  settings: ResolvedSettings;
  reportedTimeZone: string | null;
}

/** A schedule without the entries that name `playlistId`, and without it as its default. */
function withoutPlaylist(schedule: Schedule, playlistId: string): Schedule {
  return {
    entries: schedule.entries.filter((entry) => entry.playlist_id !== playlistId),
    default_playlist_id: schedule.default_playlist_id === playlistId ? null : schedule.default_playlist_id,
  };
}

/** Reads screens' settings resolved with their groups' (domain/screen-settings.ts). */
export class ScreenSettingsRepository {
  constructor(private readonly db: Queryable) {}

  private select(tags: readonly string[]) {
    return this.db.kysely
      .selectFrom('devices as d')
      .leftJoin('groups as g', 'g.id', 'd.group_id')
      .select([
        'd.tag',
        'd.playlist_id',
        'd.schedule',
        'd.power',
        'd.rotation',
        'd.time_zone',
        'd.reported_time_zone',
        'g.id as group_id',
        'g.playlist_id as group_playlist_id',
        'g.schedule as group_schedule',
        'g.power as group_power',
        'g.rotation as group_rotation',
        'g.time_zone as group_time_zone',
      ])
      .where('d.tag', 'in', tags)
      .execute();
  }

  /** Each known tag's settings and reported zone; one query per thousand tags. */
  async ofDevices(tags: readonly string[]): Promise<Map<string, ScreenSettingsRead>> {
    const result = new Map<string, ScreenSettingsRead>();
    const unique = [...new Set(tags)];
    for (let start = 0; start < unique.length; start += CHUNK) {
      for (const row of await this.select(unique.slice(start, start + CHUNK))) {
        const group = row.group_id
          ? {
              id: row.group_id,
              ...settingsFromRow({
                playlist_id: row.group_playlist_id,
                schedule: row.group_schedule,
                power: row.group_power,
                rotation: row.group_rotation,
                time_zone: row.group_time_zone,
              }),
            }
          : null;
        result.set(row.tag, {
          settings: resolveScreenSettings(settingsFromRow(row), group),
          reportedTimeZone: row.reported_time_zone,
        });
      }
    }
    return result;
  }

  /** Null for an unknown tag. */
  async ofDevice(tag: string): Promise<ScreenSettingsRead | null> {
    return (await this.ofDevices([tag])).get(tag) ?? null;
  }

  /**
   * The ids among `ids` that name an existing playlist, their rows locked until the transaction
   * ends on PostgreSQL (SQLite has one writer): a playlist being deleted cannot be named meanwhile.
   */
  async lockPlaylists(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const { kind, kysely } = this.db;
    const rows = await lockRows(
      kind,
      kysely
        .selectFrom('playlists')
        .select('id')
        .where('id', 'in', [...new Set(ids)]),
    ).execute();
    return new Set(rows.map((row) => row.id));
  }

  /**
   * Before a playlist is deleted: takes it out of every schedule that names it (its entries go,
   * and a default that names it is cleared; the store clears `playlist_id` by itself). The tags
   * of the screens whose settings, or whose group's, named it: they must hear of the change.
   */
  async forgetPlaylist(playlistId: string): Promise<string[]> {
    const { kysely } = this.db;
    // A cheap filter in the store (it may say yes to an id inside another: the rows are read).
    const mentions = (column: string) =>
      sql<boolean>`cast(${sql.ref(column)} as text) like ${`%"${playlistId}"%`}`;
    const named = await kysely
      .selectFrom('devices as d')
      .leftJoin('groups as g', 'g.id', 'd.group_id')
      .select('d.tag')
      .where((eb) =>
        eb.or([
          eb('d.playlist_id', '=', playlistId),
          eb('g.playlist_id', '=', playlistId),
          mentions('d.schedule'),
          mentions('g.schedule'),
        ]),
      )
      .orderBy('d.tag')
      .execute();
    for (const table of ['devices', 'groups'] as const) {
      const rows = await kysely
        .selectFrom(table)
        .select(['id', 'schedule'])
        .where(mentions('schedule'))
        .execute();
      for (const row of rows) {
        const schedule = fromJson<Schedule>(row.schedule as string);
        const kept = withoutPlaylist(schedule, playlistId);
        if (toJson(kept) === toJson(schedule)) continue;
        await kysely
          .updateTable(table)
          .set({ schedule: toJson(kept) })
          .where('id', '=', row.id)
          .execute();
      }
    }
    return named.map((row) => row.tag);
  }
}
