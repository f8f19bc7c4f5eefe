import type { Playlist, PlaylistCreate, PlaylistItem, PlaylistUpdate } from '../../src/shared/playlist';
import type { Queryable } from '../db/database';
import { newId } from '../ids';
import { isoRequired, one } from './rows';

interface PlaylistRow {
  id: string;
  name: string;
  items: PlaylistItem[];
  updated_at: Date;
}

const COLUMNS = 'id, name, items, updated_at';

function fromRow(row: PlaylistRow): Playlist {
  return { id: row.id, name: row.name, items: row.items, updated_at: isoRequired(row.updated_at) };
}

export class PlaylistRepository {
  constructor(private readonly db: Queryable) {}

  async list(): Promise<Playlist[]> {
    const rows = await this.db.query<PlaylistRow>(`select ${COLUMNS} from playlists order by created_at, id`);
    return rows.map(fromRow);
  }

  async find(id: string): Promise<Playlist | null> {
    const rows = await this.db.query<PlaylistRow>(`select ${COLUMNS} from playlists where id = $1`, [id]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  async exists(id: string): Promise<boolean> {
    const rows = await this.db.query('select id from playlists where id = $1', [id]);
    return rows.length > 0;
  }

  async create(input: PlaylistCreate, at: Date): Promise<Playlist> {
    const rows = await this.db.query<PlaylistRow>(
      `insert into playlists (id, name, items, created_at, updated_at) values ($1, $2, $3::jsonb, $4, $4)
       returning ${COLUMNS}`,
      [newId('pl'), input.name, JSON.stringify(input.items), at],
    );
    return fromRow(one(rows));
  }

  /** Null when there is no such playlist. Items, when given, replace the old ones as a whole. */
  async update(id: string, patch: PlaylistUpdate, at: Date): Promise<Playlist | null> {
    const rows = await this.db.query<PlaylistRow>(
      `update playlists
          set name = coalesce($2, name), items = coalesce($3::jsonb, items), updated_at = $4
        where id = $1
       returning ${COLUMNS}`,
      [id, patch.name ?? null, patch.items === undefined ? null : JSON.stringify(patch.items), at],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** Locks the playlist until the transaction ends (devices cannot be given it meanwhile); false when absent. */
  async lockForDelete(id: string): Promise<boolean> {
    const rows = await this.db.query('select id from playlists where id = $1 for update', [id]);
    return rows.length > 0;
  }

  /** Devices that showed it lose their playlist through the foreign key (on delete set null). */
  async delete(id: string): Promise<boolean> {
    const rows = await this.db.query('delete from playlists where id = $1 returning id', [id]);
    return rows.length > 0;
  }

  /** The ids among `ids` that name an existing board. */
  async existingBoards(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.query<{ id: string }>('select id from boards where id = any($1)', [ids]);
    return new Set(rows.map((row) => row.id));
  }

  /** The ids among `ids` that name an existing channel. */
  async existingChannels(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.query<{ id: string }>('select id from channels where id = any($1)', [ids]);
    return new Set(rows.map((row) => row.id));
  }
}
