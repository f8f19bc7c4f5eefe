import { describe, expect, it } from 'vitest';
import { bridgeMessageSchema, parseRequest, playerStateSchema } from './bridge';
import { helloSchema, realtimeEventSchema } from './events';
import { callFrameSchema } from './web-bridge-protocol';
import { sampleNotification } from './testing/bridge-fixtures';

const notification = sampleNotification();

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

  it('has state, metrics and notification messages, a notification with its resolved sound', () => {
    expect(bridgeMessageSchema.parse({ kind: 'state', state }).kind).toBe('state');
    expect(bridgeMessageSchema.parse({ kind: 'metrics', flow_tag: 'cpu', data: { value: 1 } }).kind).toBe(
      'metrics',
    );
    for (const sound of [null, { kind: 'default' }, { kind: 'cached', url: '/media/a.mp3' }]) {
      expect(bridgeMessageSchema.parse({ kind: 'notification', notification, sound })).toEqual({
        kind: 'notification',
        notification,
        sound,
      });
    }
    expect(bridgeMessageSchema.safeParse({ kind: 'notification', notification }).success).toBe(false);
    expect(
      bridgeMessageSchema.safeParse({
        kind: 'notification',
        notification,
        sound: { kind: 'remote', url: 'x' },
      }).success,
    ).toBe(false);
    expect(bridgeMessageSchema.safeParse({ kind: 'exec', code: 'x' }).success).toBe(false);
  });

  it("checks a method's request, and nothing for a method that takes none", () => {
    expect(parseRequest('reportShowing', { showing: 'board:b1' }).success).toBe(true);
    expect(parseRequest('reportShowing', { showing: 'board:b1', token: 'x' }).success).toBe(false);
    expect(parseRequest('log', { level: 'debug', message: 'x' }).success).toBe(false);
    expect(parseRequest('getState', undefined).success).toBe(true);
    expect(parseRequest('getState', {}).success).toBe(false);
  });

  it('derives the web frames: a request id where an answer is due, the request where one is taken', () => {
    const valid = [
      { method: 'getState', request_id: 1 },
      { method: 'reportShowing', request: { showing: 'waiting' } },
      { method: 'log', request: { level: 'info', message: 'hi' } },
    ];
    for (const frame of valid) expect(callFrameSchema.parse(frame)).toEqual(frame);
    for (const frame of [
      { method: 'getState' },
      { method: 'getState', request_id: 1, request: {} },
      { method: 'reportShowing', request_id: 1, request: { showing: 'waiting' } },
      { method: 'reportShowing' },
      { method: 'constructor', request: {} },
      { kind: 'get-state', request_id: 1 },
    ]) {
      expect(callFrameSchema.safeParse(frame).success, JSON.stringify(frame)).toBe(false);
    }
  });
});
