import type { Display, DeviceOverview } from '../../src/shared/device';
import type { Queryable } from '../db/database';
import { fromJsonOrNull } from '../db/dialect';
import { boundDevice } from '../visibility/scope';
import { deviceFromRow } from './devices';
import { iso } from './rows';

/** What the overview reads of the last heartbeat; anything else in it is left alone. */
interface StoredDiagnostics {
  showing?: string;
  app_version?: string;
  display?: Display | null;
  failures?: unknown[];
}

/**
 * Every device with its summary (src/shared/device.ts, deviceOverviewSchema) in one query however
 * many devices there are: the devices joined with their playlist's name and their screenshot's
 * time (never its bytes), the rest read from the stored heartbeat.
 */
export async function deviceOverviews(db: Queryable): Promise<DeviceOverview[]> {
  // A token bound to a device sees that one only (visibility/scope.ts).
  const onlyTag = boundDevice();
  const rows = await db.kysely
    .selectFrom('devices as d')
    .leftJoin('playlists as p', 'p.id', 'd.playlist_id')
    .leftJoin('screenshots as s', 's.device_id', 'd.id')
    .select([
      'd.id',
      'd.tag',
      'd.playlist_id',
      'd.group_id',
      'd.schedule',
      'd.power',
      'd.rotation',
      'd.time_zone',
      'd.name',
      'd.description',
      'd.online',
      'd.last_seen_date',
      'd.last_seen_ip',
      'd.diagnostics',
      'p.name as playlist_name',
      's.taken_at as screenshot_taken_at',
    ])
    .$if(onlyTag !== undefined, (query) => query.where('d.tag', '=', onlyTag as string))
    .orderBy('d.tag')
    .execute();
  return rows.map((row) => {
    const status = fromJsonOrNull<StoredDiagnostics>(row.diagnostics);
    return {
      ...deviceFromRow(row),
      playlist_name: row.playlist_name ?? null,
      showing: status?.showing ?? null,
      app_version: status?.app_version ?? null,
      display: status?.display ?? null,
      failures: Array.isArray(status?.failures) ? status.failures.length : 0,
      screenshot_taken_at: iso(row.screenshot_taken_at),
    };
  });
}
