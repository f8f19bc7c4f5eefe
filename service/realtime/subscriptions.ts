import type { Queryable } from '../db/database';
import { rooms } from './rooms';

interface DeviceRow {
  playlist_id: string | null;
  items: { type: string; board_id?: string; channel_id?: string | null }[] | null;
}

/**
 * The rooms of everything a device shows: itself, its playlist, the boards of the playlist, the
 * flows of their widgets, and the channels whose notifications it shows (every channel of each
 * board it plays, and the channel a playlist item names).
 */
export async function roomsOfDevice(db: Queryable, tag: string): Promise<string[]> {
  const result = [rooms.device(tag)];
  const [device] = await db.query<DeviceRow>(
    'select d.playlist_id, p.items from devices d left join playlists p on p.id = d.playlist_id where d.tag = $1',
    [tag],
  );
  if (!device?.playlist_id) return result;
  result.push(rooms.playlist(device.playlist_id));
  const boardItems = (device.items ?? []).filter((item) => item.type === 'board' && item.board_id);
  const boardIds = [...new Set(boardItems.map((item) => item.board_id as string))];
  if (boardIds.length === 0) return result;
  const channels = new Set(boardItems.flatMap((item) => (item.channel_id ? [item.channel_id] : [])));
  const boards = await db.query<{ id: string; channel_ids: string[] | null }>(
    "select id, settings -> 'channel_ids' as channel_ids from boards where id = any($1)",
    [boardIds],
  );
  for (const board of boards) {
    result.push(rooms.board(board.id));
    for (const channel of board.channel_ids ?? []) channels.add(channel);
  }
  const flows = await db.query<{ flow_id: string }>(
    'select distinct flow_id from widgets where board_id = any($1)',
    [boardIds],
  );
  result.push(...flows.map((row) => rooms.flow(row.flow_id)));
  result.push(...[...channels].map(rooms.channel));
  return result;
}
