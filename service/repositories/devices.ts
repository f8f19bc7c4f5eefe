import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { holdQuota } from '../accounts/quotas';
import { acrossAccounts } from '../accounts/scope';
import { boundDevice } from '../visibility/scope';
import type { Device, DeviceCreate, DeviceUpdate } from '../../src/shared/device';
import { transact, type Queryable } from '../db/database';
import { flag, fromJsonOrNull, lockRows, toJson } from '../db/dialect';
import { conflict, invalid } from '../domain/errors';
import { newId } from '../ids';
import { refusing } from './refusals';
import { iso, setsNothing } from './rows';
import { everySetting, settingsFromRow, settingsToRow, type SettingsRow } from './setting-columns';

/** The columns a device answer is made of: `diagnostics` is only served by the status route. */
const COLUMNS = [
  'id',
  'tag',
  'playlist_id',
  'group_id',
  'schedule',
  'power',
  'rotation',
  'time_zone',
  'name',
  'description',
  'online',
  'last_seen_date',
  'last_seen_ip',
] as const;

interface DeviceRow extends SettingsRow {
  id: string;
  tag: string;
  group_id: string | null;
  name: string;
  description: string;
  online: boolean | number;
  last_seen_date: Date | string | null;
  last_seen_ip: string | null;
}

/** A device as the API shows it, from its row (the overview reads the same columns). */
export function deviceFromRow(row: DeviceRow): Device {
  return {
    id: row.id,
    tag: row.tag,
    ...settingsFromRow(row),
    group_id: row.group_id,
    name: row.name,
    description: row.description,
    online: flag(row.online),
    last_seen_date: iso(row.last_seen_date),
    last_seen_ip: row.last_seen_ip,
  };
}

export const unknownPlaylist = (id: string) =>
  invalid(`playlist ${id} does not exist`, [
    { path: 'body.playlist_id', message: 'must name an existing playlist' },
  ]);

export const unknownGroup = (id: string) =>
  invalid(`group ${id} does not exist`, [{ path: 'body.group_id', message: 'must name an existing group' }]);

/** The playlist or the group was deleted between a check and the write. */
const referenceGone = (input: { playlist_id?: string | null; group_id?: string | null }) => () =>
  input.group_id ? unknownGroup(input.group_id) : unknownPlaylist(input.playlist_id ?? '');

/** A device after a presence change, and whether it was online just before. */
export interface PresenceChange {
  device: Device;
  wasOnline: boolean;
  /** The diagnostics the device had before (its last heartbeat's), read with the lock. */
  previousDiagnostics: Record<string, unknown> | null;
}

/** A heartbeat to record: the device, when and from where, and the diagnostics to keep. */
export interface HeartbeatWrite {
  tag: string;
  at: Date;
  ip: string;
  diagnostics: object;
  /** The zone it reports, when it does (older clients do not). */
  timeZone?: string;
}

/** Devices are addressed by tag everywhere in the API, so every lookup here is by tag. */
export class DeviceRepository {
  constructor(private readonly db: Queryable) {}

  /** A token bound to a device sees that one only (visibility/scope.ts), here as everywhere. */
  async list(): Promise<Device[]> {
    const bound = boundDevice();
    const rows = await this.db.kysely
      .selectFrom('devices')
      .select(COLUMNS)
      .$if(bound !== undefined, (query) => query.where('tag', '=', bound as string))
      .orderBy('tag')
      .execute();
    return rows.map(deviceFromRow);
  }

  /** Every screen's tag: what an announcement to all of them names. */
  async tags(): Promise<string[]> {
    const rows = await this.db.kysely.selectFrom('devices').select('tag').orderBy('tag').execute();
    return rows.map((row) => row.tag);
  }

  /** The screens of a group, by tag. */
  async inGroup(groupId: string): Promise<Device[]> {
    const bound = boundDevice();
    const rows = await this.db.kysely
      .selectFrom('devices')
      .select(COLUMNS)
      .where('group_id', '=', groupId)
      .$if(bound !== undefined, (query) => query.where('tag', '=', bound as string))
      .orderBy('tag')
      .execute();
    return rows.map(deviceFromRow);
  }

  async findByTag(tag: string): Promise<Device | null> {
    const bound = boundDevice();
    if (bound !== undefined && bound !== tag) return null;
    const row = await this.db.kysely
      .selectFrom('devices')
      .select(COLUMNS)
      .where('tag', '=', tag)
      .executeTakeFirst();
    return row ? deviceFromRow(row) : null;
  }

  /**
   * A conflict for a taken tag, invalid for an unknown playlist, refused past the account's devices
   * quota: every device is made here (POST /devices, a pairing's claim), in its write's transaction.
   */
  async create(input: DeviceCreate): Promise<Device> {
    await holdQuota(this.db, 'devices');
    const insert = this.db.kysely
      .insertInto('devices')
      .values({
        id: newId('dev'),
        tag: input.tag,
        name: input.name,
        description: input.description,
        group_id: input.group_id ?? null,
        ...settingsToRow(everySetting(input)),
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return deviceFromRow(
      await refusing(insert, {
        unique: () =>
          conflict(`a device with tag "${input.tag}" already exists`, [
            { path: 'body.tag', message: 'is already used by another device' },
          ]),
        foreignKey: referenceGone(input),
      }),
    );
  }

  /** Null when there is no such device; an empty patch answers the device as it is. */
  async update(tag: string, patch: DeviceUpdate): Promise<Device | null> {
    const set = {
      name: patch.name,
      description: patch.description,
      group_id: patch.group_id,
      ...settingsToRow(patch),
    };
    if (setsNothing(set)) return this.findByTag(tag);
    const update = this.db.kysely
      .updateTable('devices')
      .set(set)
      .where('tag', '=', tag)
      .returning(COLUMNS)
      .executeTakeFirst();
    const row = await refusing(update, { foreignKey: referenceGone(patch) });
    return row ? deviceFromRow(row) : null;
  }

  async delete(tag: string): Promise<boolean> {
    const result = await this.db.kysely.deleteFrom('devices').where('tag', '=', tag).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /**
   * Sets what `set` says on the device and answers whether it was online before. The previous
   * state is read under the row's lock in the same transaction, so a change racing a batch of
   * heartbeats (recordHeartbeats, which locks the same way) cannot misread what it was.
   */
  private async changePresence(tag: string, set: { online: boolean }): Promise<PresenceChange | null> {
    return transact(this.db, async ({ kind, kysely }) => {
      const previous = await lockRows(
        kind,
        kysely.selectFrom('devices').select(['id', 'online', 'diagnostics']).where('tag', '=', tag),
      ).executeTakeFirst();
      if (!previous) return null;
      const row = await kysely
        .updateTable('devices')
        .set(set)
        .where('id', '=', previous.id)
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      return {
        device: deviceFromRow(row),
        wasOnline: flag(previous.online),
        previousDiagnostics: fromJsonOrNull<Record<string, unknown>>(previous.diagnostics),
      };
    });
  }

  /**
   * Records heartbeats of many devices at once (each device once): each is online, seen at its
   * time from its address, its diagnostics replace the last ones, and the time zone it reports,
   * when it does (older clients do not), is kept apart. Every row is locked and read in the order of the tags (so two nodes' batches cannot
   * deadlock), then one update for all. The changes by tag; an unknown tag has none.
   */
  async recordHeartbeats(beats: readonly HeartbeatWrite[]): Promise<Map<string, PresenceChange>> {
    const changes = new Map<string, PresenceChange>();
    if (beats.length === 0) return changes;
    return transact(this.db, async ({ kind, kysely }) => {
      const previous = await lockRows(
        kind,
        kysely
          .selectFrom('devices')
          .select(['tag', 'online', 'diagnostics'])
          .where(
            'tag',
            'in',
            beats.map((beat) => beat.tag),
          )
          .orderBy('tag'),
      ).execute();
      if (previous.length === 0) return changes;
      // VALUES names its columns column1, column2... in both stores; its parameters are text to
      // PostgreSQL, so the columns that are not are cast there (SQLite stores them as text).
      const cast = (column: string, type: string): RawBuilder<string> =>
        kind === 'postgres'
          ? sql<string>`cast(${sql.ref(column)} as ${sql.raw(type)})`
          : sql<string>`${sql.ref(column)}`;
      const values = sql.join(
        beats.map(
          (beat) =>
            sql`(${beat.tag}, ${beat.at.toISOString()}, ${beat.ip}, ${toJson(beat.diagnostics)}, ${beat.timeZone ?? null})`,
        ),
      );
      const rows = await kysely
        .updateTable('devices')
        .from(sql`(values ${values})`.as('beat'))
        .set({
          online: true,
          last_seen_date: cast('beat.column2', 'timestamptz'),
          last_seen_ip: sql<string>`${sql.ref('beat.column3')}`,
          diagnostics: cast('beat.column4', 'jsonb'),
          reported_time_zone: sql<
            string | null
          >`coalesce(${sql.ref('beat.column5')}, ${sql.ref('devices.reported_time_zone')})`,
        })
        .where(sql<SqlBool>`${sql.ref('devices.tag')} = ${sql.ref('beat.column1')}`)
        .returning(COLUMNS)
        .execute();
      const before = new Map(previous.map((row) => [row.tag, row]));
      for (const row of rows) {
        const was = before.get(row.tag);
        if (!was) continue;
        changes.set(row.tag, {
          device: deviceFromRow(row),
          wasOnline: flag(was.online),
          previousDiagnostics: fromJsonOrNull<Record<string, unknown>>(was.diagnostics),
        });
      }
      return changes;
    });
  }

  async markOffline(tag: string): Promise<PresenceChange | null> {
    return this.changePresence(tag, { online: false });
  }

  /** Turns the device offline when it is online and was last seen at or before `since`; whether it did. */
  async markOfflineIfSilentSince(tag: string, since: Date): Promise<boolean> {
    const row = await this.db.kysely
      .updateTable('devices')
      .set({ online: false })
      .where('tag', '=', tag)
      .where('online', '=', true)
      .where('last_seen_date', '<=', since.toISOString())
      .returning('tag')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Turns offline every online device last seen before `cutoff`; their tags. */
  /** The accounts with a device online but silent since before `cutoff` (read across accounts). */
  async accountsWithSilent(cutoff: Date): Promise<string[]> {
    const rows = await acrossAccounts(() =>
      this.db.kysely
        .selectFrom('devices')
        .select('account_id')
        .distinct()
        .where('online', '=', true)
        .where('last_seen_date', '<', cutoff.toISOString())
        .execute(),
    );
    return rows.map((row) => row.account_id);
  }

  async markSilentOffline(cutoff: Date): Promise<string[]> {
    const rows = await this.db.kysely
      .updateTable('devices')
      .set({ online: false })
      .where('online', '=', true)
      .where('last_seen_date', '<', cutoff.toISOString())
      .returning('tag')
      .execute();
    return rows.map((row) => row.tag).sort();
  }

  /** The stored diagnostics of the last heartbeat: undefined without such a device, null without a heartbeat. */
  async diagnostics(tag: string): Promise<Record<string, unknown> | null | undefined> {
    const row = await this.db.kysely
      .selectFrom('devices')
      .select('diagnostics')
      .where('tag', '=', tag)
      .executeTakeFirst();
    return row ? fromJsonOrNull<Record<string, unknown>>(row.diagnostics) : undefined;
  }
}
