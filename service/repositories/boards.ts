import { sql, type Selectable } from 'kysely';
import { BOARD_DEFAULTS, type Board, type BoardCreate, type BoardSettings } from '../../src/shared/board';
import type { PlaylistItem } from '../../src/shared/playlist';
import { transact, type Queryable } from '../db/database';
import { fromJson, jsonArrayHasAny, lockRows, toJson } from '../db/dialect';
import type { BoardsTable } from '../db/schema';
import { newId } from '../ids';
import { currentVisibility } from '../visibility/scope';
import { isoRequired } from './rows';

function fromRow(row: Selectable<BoardsTable>): Board {
  // Defaults first, so a row written before a setting existed still answers in the full shape.
  const settings = { ...BOARD_DEFAULTS, ...fromJson<Partial<BoardSettings>>(row.settings) } as BoardSettings;
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

/**
 * A board's next updated_at: later than `previous` by at least a millisecond, so that two writes
 * within one millisecond (or under a clock set back) still tell an editor its copy is stale.
 */
function stampAfter(previous: string, now: Date): string {
  return new Date(Math.max(now.getTime(), Date.parse(previous) + 1)).toISOString();
}

function settingsOf({ name: _name, ...settings }: BoardCreate): BoardSettings {
  return settings;
}

/** Boards: `name` has its own column, every other setting lives in the `settings` JSON. */
export class BoardRepository {
  constructor(private readonly db: Queryable) {}

  async list(): Promise<Board[]> {
    const rows = await this.db.kysely
      .selectFrom('boards')
      .selectAll()
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const visible = await currentVisibility(this.db);
    return rows.map(fromRow).filter((board) => visible.board(board.id));
  }

  async get(id: string): Promise<Board | null> {
    if (!(await currentVisibility(this.db)).board(id)) return null;
    const row = await this.db.kysely.selectFrom('boards').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  async create(input: BoardCreate, now: Date): Promise<Board> {
    const at = now.toISOString();
    const row = await this.db.kysely
      .insertInto('boards')
      .values({
        id: newId('board'),
        name: input.name,
        settings: toJson(settingsOf(input)),
        created_at: at,
        updated_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return fromRow(row);
  }

  /** The board, locked until the transaction `this` runs in ends (SQLite runs one writer at a time). */
  async getForUpdate(id: string): Promise<Board | null> {
    const { kind, kysely } = this.db;
    const row = await lockRows(
      kind,
      kysely.selectFrom('boards').selectAll().where('id', '=', id),
    ).executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  /**
   * Writes the whole board (the route merges the patch first); null when it is gone. `board` carries
   * the updated_at it was read with, which the new one follows (`stampAfter`).
   */
  async replace(board: Board, now: Date): Promise<Board | null> {
    const { id, created_at: _created, updated_at: previous, ...fields } = board;
    const row = await this.db.kysely
      .updateTable('boards')
      .set({ name: fields.name, settings: toJson(settingsOf(fields)), updated_at: stampAfter(previous, now) })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  /**
   * Marks the board changed (one of its widgets was), so that an editor's copy loaded before is
   * refused; later than the updated_at it had, as `replace` does.
   */
  async touch(id: string, now: Date): Promise<void> {
    const board = await this.getForUpdate(id);
    if (!board) return;
    await this.db.kysely
      .updateTable('boards')
      .set({ updated_at: stampAfter(board.updated_at, now) })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.kysely.deleteFrom('boards').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** The ids of `ids` that name no channel. */
  async missingChannels(ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.kysely.selectFrom('channels').select('id').where('id', 'in', ids).execute();
    const known = new Set(rows.map((row) => row.id));
    return ids.filter((id) => !known.has(id));
  }

  /**
   * Takes the board's items out of every playlist that plays it, keeping the order of the rest;
   * the ids of the playlists changed.
   */
  async removeFromPlaylists(boardId: string, now: Date): Promise<string[]> {
    return transact(this.db, async ({ kind, kysely }) => {
      const playlists = await lockRows(
        kind,
        kysely
          .selectFrom('playlists')
          .select(['id', 'items'])
          .where(jsonArrayHasAny(kind, sql.ref('items'), [boardId], 'board_id')),
      ).execute();
      for (const playlist of playlists) {
        const items = fromJson<PlaylistItem[]>(playlist.items).filter(
          (item) => !(item.type === 'board' && item.board_id === boardId),
        );
        await kysely
          .updateTable('playlists')
          .set({ items: toJson(items), updated_at: now.toISOString() })
          .where('id', '=', playlist.id)
          .execute();
      }
      return playlists.map((playlist) => playlist.id);
    });
  }
}
