import type { Device, DeviceCreate, DeviceUpdate } from '../../src/shared/device';
import { transact, type Queryable } from '../db/database';
import { flag, fromJsonOrNull, lockRows, toJson } from '../db/dialect';
import { conflict, invalid } from '../domain/errors';
import { newId } from '../ids';
import { refusing } from './refusals';
import { iso, setsNothing } from './rows';

/** The columns a device answer is made of: `diagnostics` is only served by the status route. */
const COLUMNS = [
  'id',
  'tag',
  'playlist_id',
  'name',
  'description',
  'online',
  'last_seen_date',
  'last_seen_ip',
] as const;

interface DeviceRow {
  id: string;
  tag: string;
  playlist_id: string | null;
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
    playlist_id: row.playlist_id,
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

/** The playlist was deleted between a check and the write. */
const playlistGone = (id: string | null | undefined) => (id ? () => unknownPlaylist(id) : undefined);

/** A device after a presence change, and whether it was online just before. */
export interface PresenceChange {
  device: Device;
  wasOnline: boolean;
  /** The diagnostics the device had before (its last heartbeat's), read with the lock. */
  previousDiagnostics: Record<string, unknown> | null;
}

/** Devices are addressed by tag everywhere in the API, so every lookup here is by tag. */
export class DeviceRepository {
  constructor(private readonly db: Queryable) {}

  async list(): Promise<Device[]> {
    const rows = await this.db.kysely.selectFrom('devices').select(COLUMNS).orderBy('tag').execute();
    return rows.map(deviceFromRow);
  }

  async findByTag(tag: string): Promise<Device | null> {
    const row = await this.db.kysely
      .selectFrom('devices')
      .select(COLUMNS)
      .where('tag', '=', tag)
      .executeTakeFirst();
    return row ? deviceFromRow(row) : null;
  }

  /** A conflict for a taken tag, invalid for an unknown playlist. */
  async create(input: DeviceCreate): Promise<Device> {
    const insert = this.db.kysely
      .insertInto('devices')
      .values({
        id: newId('dev'),
        tag: input.tag,
        name: input.name,
        description: input.description,
        playlist_id: input.playlist_id,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return deviceFromRow(
      await refusing(insert, {
        unique: () =>
          conflict(`a device with tag "${input.tag}" already exists`, [
            { path: 'body.tag', message: 'is already used by another device' },
          ]),
        foreignKey: playlistGone(input.playlist_id),
      }),
    );
  }

  /** Null when there is no such device; an empty patch answers the device as it is. */
  async update(tag: string, patch: DeviceUpdate): Promise<Device | null> {
    const set = { name: patch.name, description: patch.description, playlist_id: patch.playlist_id };
    if (setsNothing(set)) return this.findByTag(tag);
    const update = this.db.kysely
      .updateTable('devices')
      .set(set)
      .where('tag', '=', tag)
      .returning(COLUMNS)
      .executeTakeFirst();
    const row = await refusing(update, { foreignKey: playlistGone(patch.playlist_id) });
    return row ? deviceFromRow(row) : null;
  }

  async delete(tag: string): Promise<boolean> {
    const result = await this.db.kysely.deleteFrom('devices').where('tag', '=', tag).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /**
   * Sets what `set` says on the device and answers whether it was online before. The previous
   * state is read under the row's lock in the same transaction, so two heartbeats racing each
   * other cannot both believe they brought the device online.
   */
  private async changePresence(
    tag: string,
    set: { online: boolean; last_seen_date?: string; last_seen_ip?: string; diagnostics?: string },
  ): Promise<PresenceChange | null> {
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

  /** Records a heartbeat: the device is online, seen now from `ip`, and `diagnostics` replace the last ones. */
  async recordHeartbeat(
    tag: string,
    diagnostics: object,
    at: Date,
    ip: string,
  ): Promise<PresenceChange | null> {
    return this.changePresence(tag, {
      online: true,
      last_seen_date: at.toISOString(),
      last_seen_ip: ip,
      diagnostics: toJson(diagnostics),
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

  async tagsWithPlaylist(playlistId: string): Promise<string[]> {
    const rows = await this.db.kysely
      .selectFrom('devices')
      .select('tag')
      .where('playlist_id', '=', playlistId)
      .orderBy('tag')
      .execute();
    return rows.map((row) => row.tag);
  }
}
