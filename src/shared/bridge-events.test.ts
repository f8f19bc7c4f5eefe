import { describe, expect, it } from 'vitest';
import { bridgeMessageSchema, playerStateSchema } from './bridge';
import { helloSchema, realtimeEventSchema } from './events';

const notification = {
  id: 'n1',
  channel_id: 'c1',
  title: 'Deploy',
  message: 'done',
  icon: null,
  duration: 10,
  sound_url: null,
  created_at: '2026-11-21T07:00:00.000Z',
};

describe('realtime events', () => {
  it('carries an id on every event', () => {
    expect(realtimeEventSchema.parse({ id: 7, type: 'notification.created', notification }).id).toBe(7);
    expect(realtimeEventSchema.safeParse({ type: 'board.changed', board_id: 'b1' }).success).toBe(false);
    expect(realtimeEventSchema.safeParse({ id: 1, type: 'mystery' }).success).toBe(false);
  });

  it('says hello with the last event id seen', () => {
    expect(helloSchema.parse({ device_tag: 'lobby', last_event_id: null })).toEqual({
      device_tag: 'lobby',
      last_event_id: null,
    });
    expect(helloSchema.safeParse({ device_tag: 'lobby' }).success).toBe(false);
  });
});

describe('bridge contract', () => {
  const state = {
    device: { tag: 'lobby', name: 'Lobby' },
    online: false,
    stale: true,
    last_sync: null,
    playlist: null,
    boards: {},
    media: {},
  };

  it('describes the player state', () => {
    expect(playerStateSchema.parse(state)).toEqual(state);
    expect(playerStateSchema.safeParse({ ...state, stale: 'no' }).success).toBe(false);
  });

  it('has state, metrics and notification messages', () => {
    expect(bridgeMessageSchema.parse({ kind: 'state', state }).kind).toBe('state');
    expect(bridgeMessageSchema.parse({ kind: 'metrics', flow_tag: 'cpu', data: { value: 1 } }).kind).toBe(
      'metrics',
    );
    expect(bridgeMessageSchema.parse({ kind: 'notification', notification }).kind).toBe('notification');
    expect(bridgeMessageSchema.safeParse({ kind: 'exec', code: 'x' }).success).toBe(false);
  });
});
