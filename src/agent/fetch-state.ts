import type { PlayerState } from '../shared/bridge';
import { boardIdsOf } from './player-state';
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
  mediaMap(state: Pick<PlayerState, 'playlist' | 'boards'>): Record<string, string>;
  /** Where a board that did not load is reported (in the heartbeats). */
  screen: Pick<ScreenStatus, 'recordFailure'>;
}

/**
 * The whole state of a device from the service: the device, its playlist and every board of it.
 * Every answer is checked by the client, so anything invalid throws before a state is made; a
 * board deleted meanwhile is left out. Throws UnknownDeviceError when the device is gone.
 */
export async function fetchPlayerState(
  deps: FetchStateDeps,
  device: { tag: string; name: string },
): Promise<PlayerState> {
  const { client, log } = deps;
  const found = await client.getDevice(device.tag).catch((error: unknown) => {
    throw error instanceof ServiceError && error.status === 404 ? new UnknownDeviceError(device.tag) : error;
  });
  const playlist = found.playlist_id ? await client.getPlaylist(found.playlist_id) : null;
  const boards: PlayerState['boards'] = {};
  for (const id of boardIdsOf(playlist)) {
    try {
      boards[id] = await client.exportBoard(id);
    } catch (error) {
      if (!(error instanceof ServiceError) || error.status !== 404) throw error;
      log.warn(`board ${id} of the playlist no longer exists; skipping it`);
      deps.screen.recordFailure(`board:${id}`, 'the service has no such board (deleted?)');
    }
  }
  return {
    device: { tag: found.tag, name: found.name || device.name },
    online: true,
    stale: false,
    last_sync: new Date(deps.now()).toISOString(),
    playlist,
    boards,
    media: deps.mediaMap({ playlist, boards }),
  };
}
