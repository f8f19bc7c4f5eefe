import { sql } from 'kysely';
import type { BoardSettings } from '../../src/shared/board';
import type { Channel, ChannelUpdate } from '../../src/shared/channel';
import type { PlaylistItem } from '../../src/shared/playlist';
import { defaultChannelId } from '../accounts/accounts';
import { transact, type Queryable } from '../db/database';
import { fromJson, jsonArrayHasAny, jsonField, lockRows, toJson } from '../db/dialect';
import { conflict, invalid } from '../domain/errors';
import { newId } from '../ids';
import { currentVisibility } from '../visibility/scope';
import { refusing } from './refusals';
import { freeTag } from './tags';
import { setsNothing } from './rows';

const COLUMNS = ['id', 'type', 'name', 'tag', 'parent_channel_id'] as const;

function fromRow(row: Channel): Channel {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    tag: row.tag,
    parent_channel_id: row.parent_channel_id,
  };
}

const channelTagTaken = (tag: string) => conflict(`a channel with tag "${tag}" already exists`);

export const unknownParent = (id: string) =>
  invalid(`channel ${id} does not exist`, [
    { path: 'body.parent_channel_id', message: `no channel has the id "${id}"` },
  ]);

export interface DeletedChannel {
  flowIds: string[];
  boardIds: string[];
  playlistIds: string[];
}

export class ChannelRepository {
  constructor(private readonly db: Queryable) {}

  async list(): Promise<Channel[]> {
    const rows = await this.db.kysely
      .selectFrom('channels')
      .select(COLUMNS)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const visible = await currentVisibility(this.db);
    return rows.map(fromRow).filter((channel) => visible.channel(channel.id));
  }

  async get(id: string): Promise<Channel | null> {
    if (!(await currentVisibility(this.db)).channel(id)) return null;
    const row = await this.db.kysely
      .selectFrom('channels')
      .select(COLUMNS)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  /** By id first, then by tag: scripts address channels by tag, the API by id. */
  async findByIdOrTag(idOrTag: string): Promise<Channel | null> {
    if (!(await currentVisibility(this.db)).channel(idOrTag)) return null;
    const rows = await this.db.kysely
      .selectFrom('channels')
      .select(COLUMNS)
      .where((eb) => eb.or([eb('id', '=', idOrTag), eb('tag', '=', idOrTag)]))
      .execute();
    const row = rows.find((channel) => channel.id === idOrTag) ?? rows[0];
    return row ? fromRow(row) : null;
  }

  async exists(id: string): Promise<boolean> {
    return (await this.get(id)) !== null;
  }

  /** The first free tag among `slug`, `slug-2`, `slug-3`… */
  freeTag(slug: string): Promise<string> {
    return freeTag(this.db, 'channels', slug);
  }

  /** A virtual channel; a conflict when the tag is taken, invalid when the parent is gone. */
  async createVirtual(input: {
    name: string;
    tag: string;
    parent_channel_id: string;
    created_at: Date;
  }): Promise<Channel> {
    const insert = this.db.kysely
      .insertInto('channels')
      .values({
        id: newId('ch'),
        type: 'virtualized',
        name: input.name,
        tag: input.tag,
        parent_channel_id: input.parent_channel_id,
        created_at: input.created_at.toISOString(),
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return fromRow(
      await refusing(insert, {
        unique: () => channelTagTaken(input.tag),
        foreignKey: () => unknownParent(input.parent_channel_id),
      }),
    );
  }

  /** Null when there is no such channel; a conflict when the tag is taken. */
  async update(id: string, patch: ChannelUpdate): Promise<Channel | null> {
    const { tag } = patch;
    const set = { name: patch.name, tag };
    if (setsNothing(set)) return this.get(id);
    const update = this.db.kysely
      .updateTable('channels')
      .set(set)
      .where('id', '=', id)
      .returning(COLUMNS)
      .executeTakeFirst();
    const row = await refusing(update, {
      unique: tag === undefined ? undefined : () => channelTagTaken(tag),
    });
    return row ? fromRow(row) : null;
  }

  /**
   * Deletes the channel with its virtual descendants and their notifications (by cascade). Their
   * flows lose their channel; boards drop them from `channel_ids` (the default channel takes over
   * when none is left); playlist items that named one show their board's own channel again.
   * Answers what changed, or null when there is no such channel.
   */
  async delete(id: string, at: Date): Promise<DeletedChannel | null> {
    return transact(this.db, async (tx) => {
      const { kind, kysely } = tx;
      const doomed = (
        await kysely
          .withRecursive('doomed(id)', (db) =>
            db
              .selectFrom('channels')
              .select('id')
              .where('id', '=', id)
              .unionAll(
                db
                  .selectFrom('channels as c')
                  .innerJoin('doomed as d', 'c.parent_channel_id', 'd.id')
                  .select('c.id'),
              ),
          )
          .selectFrom('doomed')
          .select('id')
          .execute()
      ).map((row) => row.id);
      if (doomed.length === 0) return null;
      const now = at.toISOString();
      const flows = await kysely
        .selectFrom('flows')
        .select('id')
        .where('channel_id', 'in', doomed)
        .orderBy('id')
        .execute();
      const boards = await lockRows(
        kind,
        kysely
          .selectFrom('boards')
          .select(['id', 'settings'])
          .where(jsonArrayHasAny(kind, jsonField('settings', 'channel_ids'), doomed)),
      ).execute();
      for (const board of boards) {
        const settings = fromJson<BoardSettings>(board.settings);
        const kept = settings.channel_ids.filter((channel) => !doomed.includes(channel));
        await kysely
          .updateTable('boards')
          .set({
            settings: toJson({ ...settings, channel_ids: kept.length ? kept : [defaultChannelId()] }),
            updated_at: now,
          })
          .where('id', '=', board.id)
          .execute();
      }
      const playlists = await lockRows(
        kind,
        kysely
          .selectFrom('playlists')
          .select(['id', 'items'])
          .where(jsonArrayHasAny(kind, sql.ref('items'), doomed, 'channel_id')),
      ).execute();
      for (const playlist of playlists) {
        const items = fromJson<PlaylistItem[]>(playlist.items).map((item) =>
          item.type === 'board' && item.channel_id && doomed.includes(item.channel_id)
            ? { ...item, channel_id: null }
            : item,
        );
        await kysely
          .updateTable('playlists')
          .set({ items: toJson(items), updated_at: now })
          .where('id', '=', playlist.id)
          .execute();
      }
      await kysely.deleteFrom('channels').where('id', '=', id).execute();
      return {
        flowIds: flows.map((flow) => flow.id),
        boardIds: boards.map((board) => board.id),
        playlistIds: playlists.map((playlist) => playlist.id),
      };
    });
  }
}
