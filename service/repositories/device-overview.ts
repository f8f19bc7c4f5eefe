import type { Device, Display, DeviceOverview } from '../../src/shared/device';
import type { Playing, PlayingSummary } from '../../src/shared/playing';
import type { Queryable } from '../db/database';
import { fromJsonOrNull } from '../db/dialect';
import { boundDevice } from '../visibility/scope';
import { deviceFromRow } from './devices';
import { PlayingReader } from './playing';
import { iso } from './rows';

/**
 * Devices per page of the lists of every device. A list grows with the fleet, and reading,
 * shaping and serializing 10,000 devices at once held the event loop for a tenth of a second; a
 * page of 250 is a few milliseconds of it (bench/overview.ts).
 */
export const DEVICE_PAGE = 250;

/** What the overview reads of the last heartbeat; anything else in it is left alone. */
interface StoredDiagnostics {
  showing?: string;
  app_version?: string;
  display?: Display | null;
  failures?: unknown[];
}

const DEVICE_COLUMNS = [
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
] as const;

/**
 * Every device, by tag, in pages read one after another from where the last ended (by tag: the
 * same order as a single read, without skipping or repeating a device that stays meanwhile).
 * `read` reads a page of at most `size` devices after `after` (all from the start without it).
 */
async function* byTag<T extends { tag: string }>(
  read: (after: string | undefined, size: number) => Promise<T[]>,
  size: number,
): AsyncGenerator<T[]> {
  let after: string | undefined;
  for (;;) {
    const page = await read(after, size);
    if (page.length > 0) yield page;
    const last = page.at(-1);
    if (page.length < size || last === undefined) return;
    after = last.tag;
  }
}

/** Every device as the API shows it, by tag, in pages. */
export function devicePages(db: Queryable, size = DEVICE_PAGE): AsyncGenerator<Device[]> {
  // A token bound to a device sees that one only (visibility/scope.ts).
  const onlyTag = boundDevice();
  return byTag(async (after, limit) => {
    const rows = await db.kysely
      .selectFrom('devices as d')
      .select(DEVICE_COLUMNS)
      .$if(onlyTag !== undefined, (query) => query.where('d.tag', '=', onlyTag as string))
      .$if(after !== undefined, (query) => query.where('d.tag', '>', after as string))
      .orderBy('d.tag')
      .limit(limit)
      .execute();
    return rows.map(deviceFromRow);
  }, size);
}

/** What the overview says of what a screen plays, in the schema's order (answers go out as built). */
function summaryOf({ expected, agrees, detail }: Playing): PlayingSummary {
  return { kind: expected.kind, summary: expected.summary, agrees, detail };
}

/**
 * Every device with its summary (src/shared/device.ts, deviceOverviewSchema), by tag, in pages
 * of a few queries each however many devices a page has: the devices joined with their playlist's
 * name and their screenshot's time (never its bytes), the rest read from the stored heartbeat,
 * and what each should show at `now` beside what it reports (repositories/playing.ts).
 */
export function deviceOverviewPages(
  db: Queryable,
  now: Date,
  size = DEVICE_PAGE,
): AsyncGenerator<DeviceOverview[]> {
  const onlyTag = boundDevice();
  const reader = new PlayingReader(db);
  let prepared: ReturnType<PlayingReader['prepare']> | undefined;
  return byTag(async (after, limit) => {
    const rows = await db.kysely
      .selectFrom('devices as d')
      .leftJoin('playlists as p', 'p.id', 'd.playlist_id')
      .leftJoin('screenshots as s', 's.device_id', 'd.id')
      .select([
        ...DEVICE_COLUMNS,
        'd.diagnostics',
        'p.name as playlist_name',
        's.taken_at as screenshot_taken_at',
      ])
      .$if(onlyTag !== undefined, (query) => query.where('d.tag', '=', onlyTag as string))
      .$if(after !== undefined, (query) => query.where('d.tag', '>', after as string))
      .orderBy('d.tag')
      .limit(limit)
      .execute();
    const page = rows.map((row) => {
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
    prepared ??= reader.prepare(now);
    const playing = await reader.of(page, await prepared, { since: false });
    // `of` answers for every screen it is given.
    return page.map((device): DeviceOverview => ({
      ...device,
      playing: summaryOf(playing.get(device.tag) as Playing),
    }));
  }, size);
}
