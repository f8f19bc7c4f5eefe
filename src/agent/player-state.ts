import type { BoardExport } from '../shared/board-export';
import type { PlayerState } from '../shared/bridge';
import type { MetricsData } from '../shared/metrics';
import type { Playlist } from '../shared/playlist';
import type { PlayerWeb, WebOptions } from '../shared/web-content';
import { isMediaUrl } from './media-urls';

export function emptyState(device: { tag: string; name: string }): PlayerState {
  return { device, online: false, stale: true, last_sync: null, playlist: null, boards: {}, media: {} };
}

/**
 * What the renderer gets of the service's web options (`PlayerState.web`): tiles from the host's
 * tile cache (`tileUrl`, a template with {z}/{x}/{y}) when the service has a tile source and the
 * host serves tiles; none otherwise.
 */
export function playerWebOf(options: WebOptions | undefined, tileUrl: string | undefined): PlayerWeb {
  const tiles = options?.tiles;
  return {
    tiles:
      tiles && tileUrl ? { url: tileUrl, attribution: tiles.attribution, max_zoom: tiles.max_zoom } : null,
    custom_network: options?.custom_network ?? false,
  };
}

/** The state with a flow's new metrics written into every widget that shows it. */
export function applyMetrics(state: PlayerState, flowTag: string, data: MetricsData): PlayerState {
  let changed = false;
  const boards: Record<string, BoardExport> = {};
  for (const [id, board] of Object.entries(state.boards)) {
    if (!board.widgets.some((widget) => widget.flow.tag === flowTag)) {
      boards[id] = board;
      continue;
    }
    changed = true;
    boards[id] = {
      ...board,
      widgets: board.widgets.map((widget) =>
        widget.flow.tag === flowTag ? { ...widget, flow: { ...widget.flow, data } } : widget,
      ),
    };
  }
  return changed ? { ...state, boards } : state;
}

export function boardIdsOf(playlist: Playlist | null): string[] {
  if (!playlist) return [];
  return [...new Set(playlist.items.flatMap((item) => (item.type === 'board' ? [item.board_id] : [])))];
}

function widgetMedia(board: BoardExport): string[] {
  return board.widgets.flatMap((widget) => {
    const data = widget.flow.data;
    const urls =
      widget.variant === 'image'
        ? [data.url]
        : widget.variant === 'video'
          ? [data.mp4, data.webm, data.ogg, data.poster]
          : [];
    return urls.filter((url): url is string => typeof url === 'string');
  });
}

/**
 * Every remote file the state will need on screen: the media of every playlist it can play (the
 * one in force and those its schedule switches to, offline too), board backgrounds, image and
 * video widgets.
 */
export function mediaUrlsOf(state: Pick<PlayerState, 'playlist' | 'playlists' | 'boards'>): string[] {
  const urls = new Set<string>();
  const playlists = [state.playlist, ...Object.values(state.playlists ?? {})];
  for (const item of playlists.flatMap((playlist) => playlist?.items ?? [])) {
    if (item.type !== 'board') urls.add(item.url);
  }
  for (const board of Object.values(state.boards)) {
    if (board.background_url) urls.add(board.background_url);
    for (const url of widgetMedia(board)) urls.add(url);
  }
  return [...urls].filter(isMediaUrl);
}
