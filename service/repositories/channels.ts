import type { Channel, ChannelUpdate } from '../../src/shared/channel';
import { DEFAULT_CHANNEL_ID } from '../bootstrap';
import { transact, type Queryable } from '../db/database';
import { newId } from '../ids';
import { one, setClause } from './rows';

type ChannelRow = Channel;

const COLUMNS = 'id, type, name, tag, parent_channel_id';

function fromRow(row: ChannelRow): Channel {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    tag: row.tag,
    parent_channel_id: row.parent_channel_id,
  };
}

/** Room for a "-N" suffix within the 100 characters of a tag. */
const SLUG_MAX = 90;

/** A tag made of a name: "Sales EU (night)" becomes "sales-eu-night". */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, SLUG_MAX)
    .replace(/[-_.]+$/, '');
  return slug || 'channel';
}

export interface DeletedChannel {
  flowIds: string[];
  boardIds: string[];
  playlistIds: string[];
}

export class ChannelRepository {
  constructor(private readonly db: Queryable) {}

  async list(): Promise<Channel[]> {
    const rows = await this.db.query<ChannelRow>(`select ${COLUMNS} from channels order by created_at, id`);
    return rows.map(fromRow);
  }

  async get(id: string): Promise<Channel | null> {
    const rows = await this.db.query<ChannelRow>(`select ${COLUMNS} from channels where id = $1`, [id]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** By id first, then by tag: scripts address channels by tag, the API by id. */
  async findByIdOrTag(idOrTag: string): Promise<Channel | null> {
    const rows = await this.db.query<ChannelRow>(
      `select ${COLUMNS} from channels where id = $1 or tag = $1 order by (id = $1) desc limit 1`,
      [idOrTag],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  async exists(id: string): Promise<boolean> {
    return (await this.db.query('select 1 from channels where id = $1', [id])).length > 0;
  }

  /** The first free tag among `slug`, `slug-2`, `slug-3`… */
  async freeTag(slug: string): Promise<string> {
    const rows = await this.db.query<{ tag: string }>(
      `select tag from channels where tag = $1 or (left(tag, $2) = $3 and substr(tag, $2 + 1) ~ '^[0-9]+$')`,
      [slug, slug.length + 1, `${slug}-`],
    );
    const taken = new Set(rows.map((row) => row.tag));
    if (!taken.has(slug)) return slug;
    let n = 2;
    while (taken.has(`${slug}-${n}`)) n += 1;
    return `${slug}-${n}`;
  }

  /** A virtual channel; throws the database's unique violation when the tag is taken. */
  async createVirtual(input: {
    name: string;
    tag: string;
    parent_channel_id: string;
    created_at: Date;
  }): Promise<Channel> {
    const rows = await this.db.query<ChannelRow>(
      `insert into channels (id, type, name, tag, parent_channel_id, created_at)
       values ($1, 'virtualized', $2, $3, $4, $5) returning ${COLUMNS}`,
      [newId('ch'), input.name, input.tag, input.parent_channel_id, input.created_at],
    );
    return fromRow(one(rows));
  }

  async update(id: string, patch: ChannelUpdate): Promise<Channel | null> {
    const { sql, params } = setClause(patch, { name: 'name', tag: 'tag' }, 2);
    if (!sql) return this.get(id);
    const rows = await this.db.query<ChannelRow>(
      `update channels set ${sql} where id = $1 returning ${COLUMNS}`,
      [id, ...params],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /**
   * Deletes the channel with its virtual descendants and their notifications (by cascade). Their
   * flows lose their channel; boards drop them from `channel_ids` (the default channel takes over
   * when none is left); playlist items that named one show their board's own channel again.
   * Answers what changed, or null when there is no such channel.
   */
  async delete(id: string): Promise<DeletedChannel | null> {
    return transact(this.db, async (tx) => {
      const doomed = (
        await tx.query<{ id: string }>(
          `with recursive doomed (id) as (
             select id from channels where id = $1
             union all
             select c.id from channels c join doomed d on c.parent_channel_id = d.id
           )
           select id from doomed`,
          [id],
        )
      ).map((row) => row.id);
      if (doomed.length === 0) return null;
      const flows = await tx.query<{ id: string }>(
        'select id from flows where channel_id = any($1) order by id',
        [doomed],
      );
      const boards = await tx.query<{ id: string; channel_ids: string[] }>(
        "select id, settings -> 'channel_ids' as channel_ids from boards where settings -> 'channel_ids' ?| $1",
        [doomed],
      );
      for (const board of boards) {
        const kept = board.channel_ids.filter((channel) => !doomed.includes(channel));
        await tx.query(
          "update boards set settings = jsonb_set(settings, '{channel_ids}', $2::jsonb), updated_at = now() where id = $1",
          [board.id, JSON.stringify(kept.length ? kept : [DEFAULT_CHANNEL_ID])],
        );
      }
      const playlists = await tx.query<{ id: string; items: { channel_id?: string | null }[] }>(
        `select id, items from playlists
         where exists (select 1 from jsonb_array_elements(items) item where item ->> 'channel_id' = any($1))`,
        [doomed],
      );
      for (const playlist of playlists) {
        const items = playlist.items.map((item) =>
          item.channel_id && doomed.includes(item.channel_id) ? { ...item, channel_id: null } : item,
        );
        await tx.query('update playlists set items = $2::jsonb, updated_at = now() where id = $1', [
          playlist.id,
          JSON.stringify(items),
        ]);
      }
      await tx.query('delete from channels where id = $1', [id]);
      return {
        flowIds: flows.map((flow) => flow.id),
        boardIds: boards.map((board) => board.id),
        playlistIds: playlists.map((playlist) => playlist.id),
      };
    });
  }
}
