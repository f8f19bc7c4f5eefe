import { beforeEach, describe, expect, it } from 'vitest';
import type { BridgeMessage, PlayerState, WallboardBridge } from './bridge';
import { bridgeClient, type BridgeTransport } from './bridge-client';
import { emptyPlayerState, sampleNotification } from './testing/bridge-fixtures';

const STATE: PlayerState = emptyPlayerState();
const PLAYLIST = {
  id: 'p1',
  name: 'p1',
  items: [
    { type: 'image', url: 'not a url', duration: 10 },
    { type: 'image', url: 'https://cdn.test/a.png', duration: 10 },
  ],
  updated_at: '2026-11-21T07:00:00.000Z',
};
const notification = sampleNotification({ sound_url: 'https://cdn.test/gong.wav' });

let answer: unknown;
let told: { method: string; args: unknown[] }[];
let push: ((message: unknown) => void) | null;
let subscriptions: number;
let bridge: WallboardBridge;

const logs = () => told.filter((call) => call.method === 'log').map((call) => call.args[0]);

beforeEach(() => {
  answer = STATE;
  told = [];
  push = null;
  subscriptions = 0;
  const transport: BridgeTransport = {
    ask: async () => answer,
    tell: (method, args) => told.push({ method, args }),
    subscribe(listener) {
      subscriptions += 1;
      push = listener;
      return () => {
        subscriptions -= 1;
        push = null;
      };
    },
  };
  bridge = bridgeClient(transport);
});

describe('the bridge client', () => {
  it('tells the agent what the page reports, as it is (the agent checks it)', () => {
    bridge.reportShowing({ showing: 'board:b1' });
    bridge.log({ level: 'info', message: 'hello' });
    expect(told).toEqual([
      { method: 'reportShowing', args: [{ showing: 'board:b1' }] },
      { method: 'log', args: [{ level: 'info', message: 'hello' }] },
    ]);
  });

  it('takes the bad playlist items out of a state before checking it, each logged', async () => {
    answer = { ...STATE, playlist: PLAYLIST };
    const urls = (state: PlayerState | undefined) =>
      state?.playlist?.items.map((item) => 'url' in item && item.url);
    expect(urls(await bridge.getState())).toEqual(['https://cdn.test/a.png']);
    const received: BridgeMessage[] = [];
    bridge.onMessage((message) => received.push(message));
    push?.({ kind: 'state', state: { ...STATE, playlist: PLAYLIST } });
    expect(received.map((message) => message.kind === 'state' && urls(message.state))).toEqual([
      ['https://cdn.test/a.png'],
    ]);
    expect(logs()).toEqual([
      { level: 'warn', message: 'skipped item 1 of the playlist: url: must be an http or https URL' },
      { level: 'warn', message: 'skipped item 1 of the playlist: url: must be an http or https URL' },
    ]);
  });

  it('refuses an answer that does not fit, saying why', async () => {
    answer = { ...STATE, device: { tag: '', name: 'x' } };
    await expect(bridge.getState()).rejects.toThrow(
      "the device agent's answer to getState does not fit the contract",
    );
    expect(logs()).toEqual([
      {
        level: 'warn',
        message: expect.stringMatching(
          /^ignored an invalid bridge frame from the agent \(the answer to getState\): device\.tag/,
        ),
      },
    ]);
  });

  it('ignores a message that does not fit, saying why, and passes the others on', () => {
    const received: BridgeMessage[] = [];
    bridge.onMessage((message) => received.push(message));
    const good = { kind: 'notification', notification, sound: { kind: 'cached', url: '/media/gong.wav' } };
    push?.({ ...good, notification: { ...notification, duration: 0 } });
    push?.({ ...good, sound: { kind: 'cached', url: 7 } });
    push?.('x'.repeat(10_000));
    push?.(good);
    expect(received).toEqual([good]);
    const messages = logs().map((entry) => (entry as { message: string }).message);
    expect(messages[0]).toBe(
      'ignored an invalid bridge frame from the agent (the notification message): notification.duration: must be at least 1 second',
    );
    expect(messages[1]).toMatch(/\(the notification message\): sound/);
    expect(messages[2]).toMatch(/\(a message\)/);
  });

  it('subscribes once for every listener, keeps a failing listener from the others, and lets go', () => {
    const received: string[] = [];
    const first = bridge.onMessage(() => {
      throw new Error('broken view');
    });
    const second = bridge.onMessage((message) => received.push(message.kind));
    expect(subscriptions).toBe(1);
    push?.({ kind: 'metrics', flow_tag: 'cpu', data: { value: 1 } });
    expect(received).toEqual(['metrics']);
    expect(logs()).toEqual([
      { level: 'warn', message: 'a bridge listener failed on a metrics message: Error: broken view' },
    ]);
    first();
    expect(subscriptions).toBe(1);
    second();
    second();
    expect(subscriptions).toBe(0);
  });

  it('cuts its own warnings to what the agent takes', () => {
    bridge.onMessage(() => {
      throw new Error('x'.repeat(5000));
    });
    push?.({ kind: 'metrics', flow_tag: 'cpu', data: {} });
    expect((logs()[0] as { message: string }).message).toHaveLength(4096);
  });
});
