import type { BoardExport } from '../../../src/shared/board-export';
import type { PlayerState } from '../../../src/shared/bridge';
import { libraryUrlExpiry } from '../../../src/shared/media';
import type { PlaylistItem } from '../../../src/shared/playlist';

/** What a playlist item needs on screen, read from the state it was resolved against. */
export type ItemView =
  | { kind: 'board'; boardId: string; board: BoardExport; channels: readonly string[] }
  | { kind: 'image'; url: string; src: string; fit: 'fit' | 'cover' }
  | { kind: 'video'; url: string; src: string; muted: boolean; duration: number | null }
  | { kind: 'web'; url: string; reloadSeconds: number | null };

export type Resolution = { view: ItemView } | { skip: string };

/** A board item shows its board's channels and the one the item names (null names the first). */
export function boardChannels(board: BoardExport, channelId: string | null): string[] {
  const channels = [...board.channel_ids];
  if (channelId !== null && !channels.includes(channelId)) channels.push(channelId);
  return channels;
}

/**
 * Whether an item can be shown now, and with what. Anything that cannot (its board missing
 * from the state, its media not cached yet, its library medium expired by the screen's clock,
 * `now`, as its URL says: docs/api/media.md) says why, so the player can skip it and log it.
 */
export function resolveItem(
  item: PlaylistItem,
  state: Pick<PlayerState, 'boards' | 'media'>,
  now = Date.now(),
): Resolution {
  if (item.type === 'image' || item.type === 'video') {
    const expiry = libraryUrlExpiry(item.url);
    if (expiry !== null && now >= expiry) {
      return { skip: `${item.type} ${item.url} expired at ${new Date(expiry).toISOString()}` };
    }
  }
  switch (item.type) {
    case 'board': {
      const board = state.boards[item.board_id];
      if (!board) return { skip: `board ${item.board_id} is not in the state` };
      return {
        view: {
          kind: 'board',
          boardId: item.board_id,
          board,
          channels: boardChannels(board, item.channel_id),
        },
      };
    }
    case 'image': {
      const src = state.media[item.url];
      if (!src) return { skip: `image ${item.url} is not cached yet` };
      return { view: { kind: 'image', url: item.url, src, fit: item.fit } };
    }
    case 'video': {
      const src = state.media[item.url];
      if (!src) return { skip: `video ${item.url} is not cached yet` };
      return {
        view: { kind: 'video', url: item.url, src, muted: item.muted, duration: item.duration },
      };
    }
    case 'web':
      // Nothing to cache: whether it can be shown is found when it is mounted (web-item.tsx).
      return { view: { kind: 'web', url: item.url, reloadSeconds: item.reload_seconds } };
    default: {
      // The schema allows no other type; a bridge that sends one anyway must not stop the show.
      const unknown: { type?: unknown } = item;
      return { skip: `an item of unknown type ${String(unknown.type)}` };
    }
  }
}

/** Same thing on screen: a cheap check that spares a redraw when a new state changed nothing here. */
export function sameView(a: ItemView, b: ItemView): boolean {
  if (a.kind === 'board' && b.kind === 'board') {
    return a.boardId === b.boardId && a.board === b.board && a.channels.join() === b.channels.join();
  }
  if (a.kind === 'image' && b.kind === 'image') return a.url === b.url && a.src === b.src && a.fit === b.fit;
  if (a.kind === 'video' && b.kind === 'video') {
    return a.url === b.url && a.src === b.src && a.muted === b.muted && a.duration === b.duration;
  }
  if (a.kind === 'web' && b.kind === 'web') return a.url === b.url && a.reloadSeconds === b.reloadSeconds;
  return false;
}

/** What the renderer reports it is showing, for the agent's heartbeats. */
export function describeView(view: ItemView | null): string {
  if (!view) return 'waiting';
  return view.kind === 'board' ? `board:${view.boardId}` : `${view.kind}:${view.url}`;
}

/**
 * The channels whose notifications this screen shows: those of the board on screen, or, while
 * an image, a video or nothing is on screen, those of every board of the playlist.
 */
export function screenChannels(
  view: ItemView | null,
  state: Pick<PlayerState, 'playlist' | 'boards'>,
): Set<string> {
  if (view?.kind === 'board') return new Set(view.channels);
  const channels = new Set<string>();
  for (const item of state.playlist?.items ?? []) {
    if (item.type !== 'board') continue;
    const board = state.boards[item.board_id];
    if (board) for (const channel of boardChannels(board, item.channel_id)) channels.add(channel);
  }
  return channels;
}
