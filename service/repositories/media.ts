import { sql, type Expression, type Selectable, type SqlBool } from 'kysely';
import type { BoardSettings } from '../../src/shared/board';
import {
  libraryMediaId,
  libraryUrlOf,
  playUrlOf,
  type Media,
  type MediaKind,
  type MediaUsage,
} from '../../src/shared/media';
import type { PlaylistItem } from '../../src/shared/playlist';
import type { Queryable } from '../db/database';
import { fromJson, toJson } from '../db/dialect';
import type { MediaTable } from '../db/schema';
import { accountOrDefault } from '../accounts/scope';
import { boundDevice, currentVisibility } from '../visibility/scope';
import type { SeenMedia } from '../visibility/seen-media';
import { iso, isoRequired, setsNothing } from './rows';

export interface NewMedia {
  id: string;
  name: string;
  content_type: string;
  kind: MediaKind;
  bytes: number;
  sha256: string;
}

/** A medium as stored, without where it is used. */
export type StoredMedia = Omit<Media, 'used_by' | 'play_url'> & { play_url: string };

function fromRow(row: Selectable<MediaTable>): StoredMedia {
  const stored = {
    id: row.id,
    name: row.name,
    content_type: row.content_type,
    kind: row.kind,
    bytes: Number(row.bytes),
    sha256: row.sha256,
    url: libraryUrlOf(row.id),
    created_at: isoRequired(row.created_at),
    tags: fromJson<string[]>(row.tags),
    expires_at: iso(row.expires_at),
  };
  return { ...stored, play_url: playUrlOf(stored) };
}

/** What a replaced file changes of its medium: its content, never its id. */
export interface NewContent {
  content_type: string;
  bytes: number;
  sha256: string;
}

/** The library media a playlist's items name. */
function mediaOfItems(items: readonly PlaylistItem[]): Set<string> {
  const ids = new Set<string>();
  for (const item of items) {
    const id = item.type === 'board' ? null : libraryMediaId(item.url);
    if (id) ids.add(id);
  }
  return ids;
}

/**
 * Whether the JSON column `column` holds the library URL of medium `id` (a candidate: the caller
 * reads the JSON to be sure). "_" (in ids) is escaped, being LIKE's one-character wildcard.
 */
function naming(column: string, id: string): Expression<SqlBool> {
  const pattern = `%${libraryUrlOf(id).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<SqlBool>`cast(${sql.ref(column)} as text) like ${pattern} escape '\\'`;
}

/** The rows of the library; where the bytes live is service/media/'s business. */
export class MediaRepository {
  /** `remembered`: what device-bound tokens were found to see, for `find` (visibility/seen-media.ts). */
  constructor(
    private readonly db: Queryable,
    private readonly remembered?: SeenMedia,
  ) {}

  async insert(media: NewMedia, at: Date): Promise<StoredMedia> {
    const row = await this.db.kysely
      .insertInto('media')
      .values({ ...media, created_at: at.toISOString() })
      .returningAll()
      .executeTakeFirstOrThrow();
    return fromRow(row);
  }

  async list(): Promise<StoredMedia[]> {
    const rows = await this.db.kysely
      .selectFrom('media')
      .selectAll()
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(fromRow);
  }

  /** A medium; for a device-bound token, only one it sees (`seen`), or was found to see of late. */
  async find(id: string): Promise<StoredMedia | null> {
    const stored = await this.stored(id);
    // Where it is used matters to device-bound tokens only: the others read without that pass.
    const device = boundDevice();
    if (!stored || device === undefined) return stored;
    const account = accountOrDefault();
    if (this.remembered?.has(account, device, id)) return stored;
    if (!(await this.seen(stored, await this.usageOf(id)))) return null;
    this.remembered?.remember(account, device, id);
    return stored;
  }

  /** Every medium with the playlists and boards that use it, as the caller sees them (`seen`). */
  async listUsed(): Promise<Media[]> {
    const usages = await this.usages();
    const seen = await Promise.all(
      (await this.list()).map((stored) => this.seen(stored, usages.get(stored.id) ?? [])),
    );
    return seen.filter((item) => item !== null);
  }

  /** A medium with the playlists and boards that use it, as the caller sees it (`seen`). */
  async findUsed(id: string): Promise<Media | null> {
    const stored = await this.stored(id);
    return stored ? this.seen(stored, await this.usageOf(id)) : null;
  }

  private async stored(id: string): Promise<StoredMedia | null> {
    const row = await this.db.kysely.selectFrom('media').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  /**
   * A device-bound token sees the media its device plays (visibility/scope.ts): those of its
   * playlist's items, of its boards' backgrounds, of its flows' widget data and of the sounds of
   * the notifications that reach it (its channels', its group's, its own, every screen's), and of
   * their users only its own; anything else does not exist for it.
   */
  private async seen(stored: StoredMedia, usages: MediaUsage[]): Promise<Media | null> {
    const visible = await currentVisibility(this.db);
    if (!visible.boundTo) return { ...stored, used_by: usages };
    const own = usages.filter((usage) =>
      usage.type === 'playlist' ? visible.playlist(usage.id) : visible.board(usage.id),
    );
    if (
      own.length > 0 ||
      (await this.flowsNaming(stored.id)).some((id) => visible.flow(id)) ||
      (await this.notificationsSounding(stored.id)).some((to) =>
        to.channel_id !== null
          ? visible.channel(to.channel_id)
          : to.target_group_id !== null
            ? visible.group(to.target_group_id)
            : to.target_device_tag === null || visible.device(to.target_device_tag),
      )
    ) {
      return { ...stored, used_by: own };
    }
    return null;
  }

  /** The ids among `ids` that name a medium. */
  async existing(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.kysely.selectFrom('media').select('id').where('id', 'in', ids).execute();
    return new Set(rows.map((row) => row.id));
  }

  /** Renames, retags or sets the expiry of a medium; null when there is none. */
  async update(
    id: string,
    patch: { name?: string; tags?: readonly string[]; expires_at?: string | null },
  ): Promise<StoredMedia | null> {
    const set = {
      name: patch.name,
      tags: patch.tags === undefined ? undefined : toJson(patch.tags),
      expires_at: patch.expires_at,
    };
    if (setsNothing(set)) return this.stored(id);
    const row = await this.db.kysely
      .updateTable('media')
      .set(set)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  /** Points a medium at new content (a replaced file), keeping its id and everything else. */
  async replaceContent(id: string, content: NewContent): Promise<StoredMedia | null> {
    const row = await this.db.kysely
      .updateTable('media')
      .set(content)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.kysely.deleteFrom('media').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /**
   * Where each medium is used (only `id`, when given), by media id: the playlists whose image or
   * video items name it, and the boards whose background it is. One pass over the playlists and
   * the boards; for one medium, over those whose JSON holds its URL.
   */
  async usages(id?: string): Promise<Map<string, MediaUsage[]>> {
    const usages = new Map<string, MediaUsage[]>();
    const add = (id: string, usage: MediaUsage) => usages.set(id, [...(usages.get(id) ?? []), usage]);
    const playlists = await this.db.kysely
      .selectFrom('playlists')
      .select(['id', 'name', 'items'])
      .$if(id !== undefined, (query) => query.where(naming('items', id ?? '')))
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    for (const playlist of playlists) {
      for (const id of mediaOfItems(fromJson<PlaylistItem[]>(playlist.items))) {
        add(id, { type: 'playlist', id: playlist.id, name: playlist.name });
      }
    }
    const boards = await this.db.kysely
      .selectFrom('boards')
      .select(['id', 'name', 'settings'])
      .$if(id !== undefined, (query) => query.where(naming('settings', id ?? '')))
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    for (const board of boards) {
      const background = fromJson<Partial<BoardSettings>>(board.settings).background_url;
      const id = background ? libraryMediaId(background) : null;
      if (id) add(id, { type: 'board', id: board.id, name: board.name });
    }
    return usages;
  }

  async usageOf(id: string): Promise<MediaUsage[]> {
    return (await this.usages(id)).get(id) ?? [];
  }

  /** The flows whose data names the medium (an image or video widget's URL). */
  async flowsNaming(id: string): Promise<string[]> {
    const rows = await this.db.kysely.selectFrom('flows').select('id').where(naming('data', id)).execute();
    return rows.map((row) => row.id);
  }

  /**
   * Where the notifications whose sound is the medium went: a channel, a group, a screen, or
   * (none of them) every screen.
   */
  notificationsSounding(id: string) {
    return this.db.kysely
      .selectFrom('notifications')
      .select(['channel_id', 'target_group_id', 'target_device_tag'])
      .distinct()
      .where('sound_url', '=', libraryUrlOf(id))
      .execute();
  }
}
