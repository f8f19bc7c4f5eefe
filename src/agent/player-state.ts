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

/** The parts of a state that name the files it needs. */
export type MediaSource = Pick<PlayerState, 'playlist' | 'playlists' | 'boards' | 'settings'>;

/**
 * Every remote file the state will need on screen: the image and sound of the settings'
 * emergency override first (the most urgent, and what a screen restarted offline during it must
 * show), then the media of every playlist it can play (the one in force and those its schedule
 * switches to, offline too), board backgrounds, image and video widgets.
 */
export function mediaUrlsOf(state: MediaSource): string[] {
  const urls = new Set<string>();
  const override = state.settings?.override;
  // A sound of "default" is the player's own chime, which no URL names (isMediaUrl leaves it out).
  if (override?.image_url) urls.add(override.image_url);
  if (override?.sound_url) urls.add(override.sound_url);
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
