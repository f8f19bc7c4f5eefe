import type { BoardSettings } from '../../src/shared/board';
import type { PlaylistItem } from '../../src/shared/playlist';
import type { Queryable } from '../db/database';
import { fromJson } from '../db/dialect';
import { ScreenSettingsRepository } from '../repositories/screen-settings';
import { rooms } from './rooms';

/**
 * Values per `in (...)` list. Well under both stores' limits on bound parameters (SQLite 32,766,
 * PostgreSQL 65,535), and large enough that a fleet of a thousand screens takes one query each.
 */
const CHUNK = 1000;

function chunks<T>(values: readonly T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < values.length; start += CHUNK) result.push(values.slice(start, start + CHUNK));
  return result;
}

/** The board items of a playlist as read: the boards it plays and the channels its items name. */
function boardItemsOf(items: string): { boardIds: string[]; channels: string[] } {
  const parsed = fromJson<PlaylistItem[]>(items);
  const boardItems = parsed.flatMap((item) => (item.type === 'board' && item.board_id ? [item] : []));
  return {
    boardIds: [...new Set(boardItems.map((item) => item.board_id))],
    channels: boardItems.flatMap((item) => (item.channel_id ? [item.channel_id] : [])),
  };
}

/**
 * The rooms of everything each device shows: itself, its group and every screen of its account
 * (the notifications sent to screens), every playlist its settings may play (its
 * playlist, or its group's, and those its schedule names: `playlist_ids` of
 * domain/screen-settings.ts), the boards of those playlists, the flows of their widgets, and the
 * channels whose notifications it shows (every channel of each board it plays, and the channel a
 * playlist item names). Four queries for any number of devices (one per CHUNK of them): devices
 * with their groups, their playlists, the boards, the widgets' flows. A tag with no device gets
 * its own room only.
 */
export async function roomsOfDevices(db: Queryable, tags: readonly string[]): Promise<Map<string, string[]>> {
  const unique = [...new Set(tags)];
  const result = new Map(unique.map((tag) => [tag, [rooms.device(tag)]]));
  const playlistsOf = new Map<string, string[]>();
  for (const [tag, { settings }] of await new ScreenSettingsRepository(db).ofDevices(unique)) {
    // The notifications sent to screens rather than channels: to all of the account's, to a group's.
    const own = result.get(tag) as string[];
    own.push(rooms.screens());
    if (settings.group_id !== null) own.push(rooms.group(settings.group_id));
    if (settings.playlist_ids.length > 0) playlistsOf.set(tag, settings.playlist_ids);
  }
  const items = new Map<string, { boardIds: string[]; channels: string[] }>();
  for (const chunk of chunks([...new Set([...playlistsOf.values()].flat())])) {
    const playlists = await db.kysely
      .selectFrom('playlists')
      .select(['id', 'items'])
      .where('id', 'in', chunk)
      .execute();
    for (const playlist of playlists) items.set(playlist.id, boardItemsOf(playlist.items));
  }
  const playlistOf = new Map<string, { ids: string[]; boardIds: string[]; channels: string[] }>();
  for (const [tag, ids] of playlistsOf) {
    const played = ids.flatMap((id) => items.get(id) ?? []);
    playlistOf.set(tag, {
      ids,
      boardIds: [...new Set(played.flatMap((playlist) => playlist.boardIds))],
      channels: played.flatMap((playlist) => playlist.channels),
    });
  }
  const boardIds = [...new Set([...playlistOf.values()].flatMap((playlist) => playlist.boardIds))];
  const boardChannels = new Map<string, string[]>();
  const boardFlows = new Map<string, string[]>();
  for (const chunk of chunks(boardIds)) {
    const boards = await db.kysely
      .selectFrom('boards')
      .select(['id', 'settings'])
      .where('id', 'in', chunk)
      .execute();
    for (const board of boards) {
      boardChannels.set(board.id, fromJson<Partial<BoardSettings>>(board.settings).channel_ids ?? []);
    }
    const widgets = await db.kysely
      .selectFrom('widgets')
      .select(['board_id', 'flow_id'])
      .distinct()
      .where('board_id', 'in', chunk)
      .execute();
    for (const { board_id: boardId, flow_id: flowId } of widgets) {
      boardFlows.set(boardId, [...(boardFlows.get(boardId) ?? []), flowId]);
    }
  }
  for (const [tag, playlist] of playlistOf) {
    const own = result.get(tag) as string[];
    own.push(...playlist.ids.map(rooms.playlist));
    // Boards deleted since the playlist named them are skipped, as are their flows and channels.
    const boards = playlist.boardIds.filter((id) => boardChannels.has(id));
    const flows = new Set(boards.flatMap((id) => boardFlows.get(id) ?? []));
    const channels = new Set([...playlist.channels, ...boards.flatMap((id) => boardChannels.get(id) ?? [])]);
    own.push(...boards.map(rooms.board), ...[...flows].map(rooms.flow), ...[...channels].map(rooms.channel));
  }
  return result;
}

/** The rooms of one device (see roomsOfDevices). */
export async function roomsOfDevice(db: Queryable, tag: string): Promise<string[]> {
  return (await roomsOfDevices(db, [tag])).get(tag) as string[];
}
