import { libraryMediaId } from '../../src/shared/media';
import type { PlaylistItem } from '../../src/shared/playlist';
import type { Queryable } from '../db/database';
import { fromJson } from '../db/dialect';
import { roomsOfDevices } from '../realtime/subscriptions';

export type ContentKind = 'board' | 'playlist' | 'flow' | 'channel' | 'media';

/** What some screens play, by kind (ids). */
export type Foreign = Record<ContentKind, Set<string>>;

const ROOM_KINDS: ReadonlySet<string> = new Set(['board', 'playlist', 'flow', 'channel']);

/**
 * What the screens outside `groups` (and those in no group) play: the rooms their sockets join
 * (realtime/subscriptions.ts) by kind, and the library media of their playlists. To be read
 * seeing every group.
 */
export async function foreignContent(db: Queryable, groups: readonly string[]): Promise<Foreign> {
  const foreign: Foreign = {
    board: new Set(),
    playlist: new Set(),
    flow: new Set(),
    channel: new Set(),
    media: new Set(),
  };
  const screens = await db.kysely
    .selectFrom('devices')
    .select('tag')
    .where((eb) => eb.or([eb('group_id', 'is', null), eb('group_id', 'not in', groups)]))
    .execute();
  for (const rooms of (
    await roomsOfDevices(
      db,
      screens.map((screen) => screen.tag),
    )
  ).values()) {
    for (const room of rooms) {
      const colon = room.indexOf(':');
      const kind = room.slice(0, colon);
      if (ROOM_KINDS.has(kind)) foreign[kind as ContentKind].add(room.slice(colon + 1));
    }
  }
  if (foreign.playlist.size > 0) {
    const playlists = await db.kysely
      .selectFrom('playlists')
      .select('items')
      .where('id', 'in', [...foreign.playlist])
      .execute();
    for (const item of playlists.flatMap((playlist) => fromJson<PlaylistItem[]>(playlist.items))) {
      const id = 'url' in item && item.url ? libraryMediaId(item.url) : null;
      if (id) foreign.media.add(id);
    }
  }
  return foreign;
}
