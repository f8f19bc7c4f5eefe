import { sql } from 'kysely';
import type { DeviceHistoryEntry, DeviceHistoryKind } from '../../src/shared/device-history';
import type { Queryable } from '../db/database';
import { isoRequired } from './rows';

/** An entry to record: when, what, and the words that say it. */
export interface HistoryInput {
  at: Date;
  kind: DeviceHistoryKind;
  detail: string;
}

/** Tags per statement: far under both stores' limits on bound parameters. */
const CHUNK = 1000;

/** A screen's status history (src/shared/device-history.ts), addressed by the device's tag. */
export class DeviceHistoryRepository {
  constructor(private readonly db: Queryable) {}

  /** Records `entries` for the device of `tag`, in their order; nothing when there is none. */
  async add(tag: string, entries: readonly HistoryInput[]): Promise<void> {
    if (entries.length === 0) return;
    const device = await this.db.kysely
      .selectFrom('devices')
      .select('id')
      .where('tag', '=', tag)
      .executeTakeFirst();
    if (!device) return;
    await this.db.kysely
      .insertInto('device_history')
      .values(
        entries.map((entry) => ({
          device_id: device.id,
          at: entry.at.toISOString(),
          kind: entry.kind,
          detail: entry.detail,
        })),
      )
      .execute();
  }

  /**
   * Records the entries of many devices, each by its device's id, in one statement per chunk, in
   * their order (the heartbeats of a batch, actions/heartbeat-writes.ts).
   */
  async addByDeviceId(entries: readonly (HistoryInput & { deviceId: string })[]): Promise<void> {
    for (let start = 0; start < entries.length; start += CHUNK) {
      await this.db.kysely
        .insertInto('device_history')
        .values(
          entries.slice(start, start + CHUNK).map((entry) => ({
            device_id: entry.deviceId,
            at: entry.at.toISOString(),
            kind: entry.kind,
            detail: entry.detail,
          })),
        )
        .execute();
    }
  }

  /** Records one entry for each device of `tags` (the sweep turns many offline at once). */
  async addToAll(tags: readonly string[], entry: HistoryInput): Promise<void> {
    for (let start = 0; start < tags.length; start += CHUNK) {
      const chunk = tags.slice(start, start + CHUNK);
      await this.db.kysely
        .insertInto('device_history')
        .columns(['device_id', 'at', 'kind', 'detail'])
        .expression((eb) =>
          eb
            .selectFrom('devices')
            .select([
              'id',
              // An untyped parameter in a select list is text to PostgreSQL, which `at` is not there.
              (this.db.kind === 'postgres'
                ? sql<string>`cast(${entry.at.toISOString()} as timestamptz)`
                : sql<string>`${entry.at.toISOString()}`
              ).as('at'),
              sql<DeviceHistoryKind>`${entry.kind}`.as('kind'),
              sql<string>`${entry.detail}`.as('detail'),
            ])
            .where('tag', 'in', chunk)
            .orderBy('tag'),
        )
        .execute();
    }
  }

  /** The newest `limit` entries of the device, before the entry `before` when given. */
  async page(tag: string, limit: number, before?: number): Promise<DeviceHistoryEntry[]> {
    const rows = await this.db.kysely
      .selectFrom('device_history as h')
      .innerJoin('devices as d', 'd.id', 'h.device_id')
      .select(['h.seq', 'h.at', 'h.kind', 'h.detail'])
      .where('d.tag', '=', tag)
      .$if(before !== undefined, (query) => query.where('h.seq', '<', before as number))
      .orderBy('h.seq', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      seq: Number(row.seq),
      at: isoRequired(row.at),
      kind: row.kind,
      detail: row.detail,
    }));
  }

  /** Drops the entries older than `before`. */
  async prune(before: Date): Promise<void> {
    await this.db.kysely.deleteFrom('device_history').where('at', '<', before.toISOString()).execute();
  }
}
