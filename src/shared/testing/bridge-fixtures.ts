import type { PlayerState } from '../bridge';
import type { Notification } from '../notification';

/** A player state with nothing to play, for tests of the bridge and its ends. */
export function emptyPlayerState(tag = 'lobby', overrides: Partial<PlayerState> = {}): PlayerState {
  return {
    device: { tag, name: 'Lobby' },
    online: true,
    stale: false,
    last_sync: null,
    playlist: null,
    boards: {},
    media: {},
    ...overrides,
  };
}

/** A notification of channel c1, without a sound unless `overrides` gives one. */
export function sampleNotification(overrides: Partial<Notification> = {}): Notification {
  return {
    id: 'n1',
    channel_id: 'c1',
    title: 'Deploy',
    message: 'done',
    icon: null,
    duration: 10,
    sound_url: null,
    created_at: '2026-11-21T07:00:00.000Z',
    ...overrides,
  };
}
