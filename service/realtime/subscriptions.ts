import type { BoardSettings } from '../../src/shared/board';
import type { PlaylistItem } from '../../src/shared/playlist';
import type { Queryable } from '../db/database';
import { fromJson } from '../db/dialect';
import { rooms } from './rooms';

/**
 * The rooms of everything a device shows: itself, its playlist, the boards of the playlist, the
 * flows of their widgets, and the channels whose notifications it shows (every channel of each
 * board it plays, and the channel a playlist item names).
 */
export async function roomsOfDevice(db: Queryable, tag: string): Promise<string[]> {
  const result = [rooms.device(tag)];
  const device = await db.kysely
    .selectFrom('devices as d')
    .leftJoin('playlists as p', 'p.id', 'd.playlist_id')
    .select(['d.playlist_id', 'p.items'])
    .where('d.tag', '=', tag)
    .executeTakeFirst();
  if (!device?.playlist_id) return result;
  result.push(rooms.playlist(device.playlist_id));
  const items = device.items === null ? [] : fromJson<PlaylistItem[]>(device.items);
  const boardItems = items.flatMap((item) => (item.type === 'board' && item.board_id ? [item] : []));
  const boardIds = [...new Set(boardItems.map((item) => item.board_id))];
  if (boardIds.length === 0) return result;
  const channels = new Set(boardItems.flatMap((item) => (item.channel_id ? [item.channel_id] : [])));
  const boards = await db.kysely
    .selectFrom('boards')
    .select(['id', 'settings'])
    .where('id', 'in', boardIds)
    .execute();
  for (const board of boards) {
    result.push(rooms.board(board.id));
    const { channel_ids: channelIds } = fromJson<Partial<BoardSettings>>(board.settings);
    for (const channel of channelIds ?? []) channels.add(channel);
  }
  const flows = await db.kysely
    .selectFrom('widgets')
    .select('flow_id')
    .distinct()
    .where('board_id', 'in', boardIds)
    .execute();
  result.push(...flows.map((row) => rooms.flow(row.flow_id)));
  result.push(...[...channels].map(rooms.channel));
  return result;
}
