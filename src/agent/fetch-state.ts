import type { PlayerState } from '../shared/bridge';
import type { Playlist } from '../shared/playlist';
import type { ScreenSettings } from '../shared/screen-settings';
import { boardIdsOf, playerWebOf, type MediaSource } from './player-state';
import type { Logger } from './ports';
import { UnknownDeviceError } from './registration';
import type { ScreenStatus } from './screen-status';
import { ServiceError, type ServiceClient } from './service-client';

export interface FetchStateDeps {
  client: ServiceClient;
  log: Logger;
  /** Milliseconds since the epoch, for `last_sync`. */
  now(): number;
  /** The media map of the new state: what of it is cached already. */
  mediaMap(state: MediaSource): Record<string, string>;
  /** Where a board that did not load is reported (in the heartbeats). */
  screen: Pick<ScreenStatus, 'recordFailure'>;
  /** Where the renderer loads map tiles from (AgentDeps.tileUrlTemplate); absent: maps have none. */
  tileUrlTemplate?: string;
}

const isNotFound = (error: unknown): boolean => error instanceof ServiceError && error.status === 404;

/**
 * The whole state of a device from the service: the device, its resolved settings, every
 * playlist they can play (so a schedule switches with the service away) and every board of them.
 * `playlist` is the device's own here; the schedule player (schedule-player.ts) puts the one in
 * force in its place. An older service without settings (404) gives the device's playlist alone.
 * Every answer is checked by the client, so anything invalid throws before a state is made; a
 * board deleted meanwhile is left out. Throws UnknownDeviceError when the device is gone.
 */
export async function fetchPlayerState(
  deps: FetchStateDeps,
  device: { tag: string; name: string },
): Promise<PlayerState> {
  const { client, log } = deps;
  const found = await client.getDevice(device.tag).catch((error: unknown) => {
    throw isNotFound(error) ? new UnknownDeviceError(device.tag) : error;
  });
  // The device was just found: a 404 here is a service that has no such route (an older one).
  const settings = await client.getSettings(found.tag).catch((error: unknown): ScreenSettings | null => {
    if (isNotFound(error)) return null;
    throw error;
  });
  const ids = settings ? settings.playlist_ids : found.playlist_id ? [found.playlist_id] : [];
  const playlists: Record<string, Playlist> = {};
  // A playlist missing (404) throws like any failure: the last good state plays until a resync works.
  for (const id of new Set(ids)) playlists[id] = await client.getPlaylist(id);
  const boards: PlayerState['boards'] = {};
  const boardIds = new Set(Object.values(playlists).flatMap(boardIdsOf));
  for (const id of boardIds) {
    try {
      boards[id] = await client.exportBoard(id);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      log.warn(`board ${id} of the playlist no longer exists; skipping it`);
      deps.screen.recordFailure(`board:${id}`, 'the service has no such board (deleted?)');
    }
  }
  const ownId = settings ? settings.playlist_id : found.playlist_id;
  const playlist = (ownId && playlists[ownId]) || null;
  return {
    device: { tag: found.tag, name: found.name || device.name },
    online: true,
    stale: false,
    last_sync: new Date(deps.now()).toISOString(),
    playlist,
    playlists,
    settings,
    web: playerWebOf(settings?.web, deps.tileUrlTemplate),
    boards,
    media: deps.mediaMap({ playlist, playlists, boards, settings }),
  };
}
