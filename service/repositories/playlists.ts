import type { Selectable } from 'kysely';
import type { Playlist, PlaylistCreate, PlaylistItem, PlaylistUpdate } from '../../src/shared/playlist';
import type { Queryable } from '../db/database';
import { fromJson, lockRows, toJson } from '../db/dialect';
import type { PlaylistsTable } from '../db/schema';
import { newId } from '../ids';
import { currentVisibility } from '../visibility/scope';
import { isoRequired } from './rows';

const COLUMNS = ['id', 'name', 'items', 'updated_at'] as const;

function fromRow(row: Pick<Selectable<PlaylistsTable>, (typeof COLUMNS)[number]>): Playlist {
  return {
    id: row.id,
    name: row.name,
    items: fromJson<PlaylistItem[]>(row.items),
    updated_at: isoRequired(row.updated_at),
  };
}

export class PlaylistRepository {
  constructor(private readonly db: Queryable) {}

  async list(): Promise<Playlist[]> {
    const rows = await this.db.kysely
      .selectFrom('playlists')
      .select(COLUMNS)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const visible = await currentVisibility(this.db);
    return rows.map(fromRow).filter((playlist) => visible.playlist(playlist.id));
  }

  async find(id: string): Promise<Playlist | null> {
    if (!(await currentVisibility(this.db)).playlist(id)) return null;
    const row = await this.db.kysely
      .selectFrom('playlists')
      .select(COLUMNS)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  async exists(id: string): Promise<boolean> {
    const row = await this.db.kysely
      .selectFrom('playlists')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  async create(input: PlaylistCreate, at: Date): Promise<Playlist> {
    const now = at.toISOString();
    const row = await this.db.kysely
      .insertInto('playlists')
      .values({
        id: newId('pl'),
        name: input.name,
        items: toJson(input.items),
        created_at: now,
        updated_at: now,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return fromRow(row);
  }

  /** Null when there is no such playlist. Items, when given, replace the old ones as a whole. */
  async update(id: string, patch: PlaylistUpdate, at: Date): Promise<Playlist | null> {
    const row = await this.db.kysely
      .updateTable('playlists')
      .set({
        name: patch.name,
        items: patch.items === undefined ? undefined : toJson(patch.items),
        updated_at: at.toISOString(),
      })
      .where('id', '=', id)
      .returning(COLUMNS)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  /** Locks the playlist until the transaction ends (devices cannot be given it meanwhile); false when absent. */
  async lockForDelete(id: string): Promise<boolean> {
    const { kind, kysely } = this.db;
    const row = await lockRows(
      kind,
      kysely.selectFrom('playlists').select('id').where('id', '=', id),
    ).executeTakeFirst();
    return row !== undefined;
  }

  /** Devices that showed it lose their playlist through the foreign key (on delete set null). */
  async delete(id: string): Promise<boolean> {
    const result = await this.db.kysely.deleteFrom('playlists').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** The ids among `ids` that name an existing board. */
  async existingBoards(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.kysely.selectFrom('boards').select('id').where('id', 'in', ids).execute();
    return new Set(rows.map((row) => row.id));
  }

  /** The ids among `ids` that name an existing channel. */
  async existingChannels(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.kysely.selectFrom('channels').select('id').where('id', 'in', ids).execute();
    return new Set(rows.map((row) => row.id));
  }
}
