import { BOARD_DEFAULTS, type Board, type BoardCreate, type BoardSettings } from '../../src/shared/board';
import type { Queryable } from '../db/database';
import { newId } from '../ids';
import { isoRequired, one } from './rows';

interface BoardRow {
  id: string;
  name: string;
  settings: Partial<BoardSettings>;
  created_at: Date | string;
  updated_at: Date | string;
}

function fromRow(row: BoardRow): Board {
  // Defaults first, so a row written before a setting existed still answers in the full shape.
  const settings: BoardSettings = { ...BOARD_DEFAULTS, ...row.settings } as BoardSettings;
  return {
    id: row.id,
    name: row.name,
    ...settings,
    size: [...settings.size],
    channel_ids: [...settings.channel_ids],
    created_at: isoRequired(row.created_at),
    updated_at: isoRequired(row.updated_at),
  };
}

function settingsOf({ name: _name, ...settings }: BoardCreate): BoardSettings {
  return settings;
}

/** Boards: `name` has its own column, every other setting lives in the `settings` jsonb. */
export class BoardRepository {
  constructor(private readonly db: Queryable) {}

  async list(): Promise<Board[]> {
    const rows = await this.db.query<BoardRow>('select * from boards order by created_at, id');
    return rows.map(fromRow);
  }

  async get(id: string): Promise<Board | null> {
    const rows = await this.db.query<BoardRow>('select * from boards where id = $1', [id]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  async create(input: BoardCreate, now: Date): Promise<Board> {
    const rows = await this.db.query<BoardRow>(
      `insert into boards (id, name, settings, created_at, updated_at)
       values ($1, $2, $3::jsonb, $4, $4) returning *`,
      [newId('board'), input.name, JSON.stringify(settingsOf(input)), now],
    );
    return fromRow(one(rows));
  }

  /** Writes the whole board (the route merges the patch first); null when it is gone. */
  async replace(board: Board, now: Date): Promise<Board | null> {
    const { id, created_at: _created, updated_at: _updated, ...fields } = board;
    const rows = await this.db.query<BoardRow>(
      'update boards set name = $2, settings = $3::jsonb, updated_at = $4 where id = $1 returning *',
      [id, fields.name, JSON.stringify(settingsOf(fields)), now],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  async delete(id: string): Promise<boolean> {
    const rows = await this.db.query('delete from boards where id = $1 returning id', [id]);
    return rows.length > 0;
  }

  /** The ids of `ids` that name no channel. */
  async missingChannels(ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.query<{ id: string }>('select id from channels where id = any($1)', [ids]);
    const known = new Set(rows.map((row) => row.id));
    return ids.filter((id) => !known.has(id));
  }

  /**
   * Takes the board's items out of every playlist that plays it, keeping the order of the rest;
   * the ids of the playlists changed.
   */
  async removeFromPlaylists(boardId: string, now: Date): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `update playlists set
         items = (
           select coalesce(jsonb_agg(item order by position), '[]'::jsonb)
           from jsonb_array_elements(items) with ordinality as t(item, position)
           where not (item ->> 'type' = 'board' and item ->> 'board_id' = $1)
         ),
         updated_at = $3
       where items @> $2::jsonb
       returning id`,
      [boardId, JSON.stringify([{ type: 'board', board_id: boardId }]), now],
    );
    return rows.map((row) => row.id);
  }
}
