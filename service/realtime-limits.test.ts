import type { LogEvent } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { applyMetrics, emptyState } from '../src/agent/player-state';
import type { BoardExport } from '../src/shared/board-export';
import { helloAckSchema } from '../src/shared/events';
import { HELLO_RATE, HELLO_REFUSALS } from './realtime/hub';
import { REPLAY_LIMITS } from './realtime/replay';
import { rooms } from './realtime/rooms';
import { roomsOfDevice, roomsOfDevices } from './realtime/subscriptions';
import {
  clientsOf,
  connectError,
  hello,
  listen,
  notification,
  seed,
  type Client,
} from './testing/realtime-clients';
import { ADMIN_SECRET, startTestService, type TestService } from './test-support';

let service: TestService;
let url: string;
const clients = clientsOf(() => url);
const open = clients.open;
/** The statements the store ran to find devices' rooms (realtime/subscriptions.ts). */
const roomQueries: string[] = [];
const ROOM_QUERY =
  /from "devices" as "d" left join "groups"|^select "id", "items" from "playlists"|^select "id", "settings" from "boards"|^select distinct "board_id", "flow_id" from "widgets"/;

const SCREENS = 30;
const screens = Array.from({ length: SCREENS }, (_, i) => `screen-${i}`);

beforeAll(async () => {
  service = await startTestService(
    {},
    {
      log: (event: LogEvent) => {
        if (ROOM_QUERY.test(event.query.sql)) roomQueries.push(event.query.sql);
      },
    },
  );
  await seed(service, [
    // b1 also shows f3 (on c2, which b1 does not use); p3 names channel c2 on its item.
    "insert into flows (id, type, variant, tag, enabled, channel_id) values ('f3', 'default', 'value', 'disk', true, 'c2')",
    `insert into widgets (id, board_id, flow_id, variant, "column", "row", width, height, in_board_index) values ('w3', 'b1', 'f3', 'value', 4, 0, 4, 4, 1)`,
    `insert into playlists (id, name, items) values ('p3', 'Both', '[{"type": "board", "board_id": "b2", "channel_id": "c1", "duration": 10}, {"type": "board", "board_id": "gone", "channel_id": null, "duration": 10}]')`,
    "insert into devices (id, tag, playlist_id) values ('d2', 'hall', 'p3'), ('d3', 'spare', null)",
    `insert into devices (id, tag, playlist_id) values ${screens.map((tag) => `('id-${tag}', '${tag}', 'p1')`).join(', ')}`,
  ]);
  url = await listen(service);
});
afterEach(() => clients.closeAll());
afterAll(() => service.close());

const sorted = (values: readonly string[] | undefined) => [...(values ?? [])].sort();

describe('rooms, for many devices at once', () => {
  it('gives every device the rooms it gets alone, in four queries', async () => {
    const tags = ['lobby', 'hall', 'spare', 'nobody', ...screens];
    roomQueries.length = 0;
    const all = await roomsOfDevices(service.db, tags);
    // The devices with their groups, the playlists they may play, the boards, the widgets.
    expect(roomQueries).toHaveLength(4);
    for (const tag of tags)
      expect(sorted(all.get(tag)), tag).toEqual(sorted(await roomsOfDevice(service.db, tag)));
    // Every screen of the account is in `screens:<account>` (notifications to every screen).
    expect(sorted(all.get('lobby'))).toEqual(
      sorted([
        'device:lobby',
        'screens:default',
        'playlist:p1',
        'board:b1',
        'flow:f1',
        'flow:f3',
        'channel:c1',
      ]),
    );
    expect(sorted(all.get('hall'))).toEqual(
      sorted([
        'device:hall',
        'screens:default',
        'playlist:p3',
        'board:b2',
        'flow:f2',
        'channel:c2',
        'channel:c1',
      ]),
    );
    expect(all.get('spare')).toEqual(['device:spare', 'screens:default']);
    expect(all.get('nobody')).toEqual(['device:nobody']);
  });

  it('moves every screen of an edited playlist with a bounded number of queries', async () => {
    const sockets = screens.map(() => open());
    await Promise.all(sockets.map((socket, i) => hello(socket, null, screens[i])));
    const inRoom = () => service.app.realtime.sockets.adapter.rooms.get(rooms.board('b2'))?.size ?? 0;
    expect(inRoom()).toBe(0);
    roomQueries.length = 0;
    const items = [{ type: 'board', board_id: 'b2', channel_id: null, duration: 10 }];
    expect((await service.call('PATCH', '/playlists/p1', { items })).statusCode).toBe(200);
    await expect.poll(inRoom).toBe(SCREENS);
    // One socket at a time would have taken four queries each.
    expect(roomQueries.length).toBeLessThanOrEqual(4);
    const back = [{ type: 'board', board_id: 'b1', channel_id: null, duration: 10 }];
    expect((await service.call('PATCH', '/playlists/p1', { items: back })).statusCode).toBe(200);
    await expect.poll(inRoom).toBe(0);
  });
});

describe('replay', () => {
  const pad = (bytes: number) => 'x'.repeat(bytes);
  const putMetrics = async (tag: string, data: object) =>
    expect((await service.call('PUT', `/flows/${tag}/metrics`, data)).statusCode).toBe(200);
  const exportOf = async (board: string) =>
    (await service.call('GET', `/boards/${board}/export`)).json() as BoardExport;

  it('sends each flow’s latest metrics once, within the bound, and the device ends as a resync would', async () => {
    const first = open();
    const { last_event_id: seen } = await hello(first, null);
    const before = emptyState({ tag: 'lobby', name: 'Lobby' });
    before.boards.b1 = await exportOf('b1');
    first.disconnect();
    // About 9 MB missed: far more than one answer may carry.
    for (let i = 0; i < 30; i++) {
      await putMetrics('cpu', { value: i, pad: pad(300_000) });
      if (i % 10 === 0) await putMetrics('disk', { value: -i, pad: pad(10_000) });
      if (i % 10 === 0) await putMetrics('mem', { value: i, pad: pad(300_000) }); // not lobby's
    }
    await service.app.wallboard.changes.publish(notification('c1', 'while away'));

    const ack = await hello(open(), seen);
    expect(helloAckSchema.safeParse(ack).success).toBe(true);
    expect(ack.resync).toBe(false);
    expect(Buffer.byteLength(JSON.stringify(ack))).toBeLessThanOrEqual(REPLAY_LIMITS.bytes);
    expect(ack.events.map((event) => event.type)).toEqual([
      'metrics.changed',
      'metrics.changed',
      'notification.created',
    ]);
    const metrics = ack.events.flatMap((event) => (event.type === 'metrics.changed' ? [event] : []));
    expect(metrics.map((event) => [event.flow_tag, event.data.value])).toEqual([
      ['disk', -20],
      ['cpu', 29],
    ]);
    // Applied as the agent applies them: the same flows' data as a full resync fetches.
    let state = before;
    for (const event of metrics) state = applyMetrics(state, event.flow_tag, event.data);
    const flowsOf = (board: BoardExport | undefined) => board?.widgets.map((widget) => widget.flow.data);
    expect(flowsOf(state.boards.b1)).toEqual(flowsOf(await exportOf('b1')));
  });

  it('asks for a resync when what was missed does not fit, however it is counted', async () => {
    const { last_event_id: seen } = await hello(open(), null);
    await putMetrics('cpu', { value: 1, pad: pad(600_000) });
    await putMetrics('disk', { value: 2, pad: pad(600_000) });
    const bytes = await hello(open(), seen);
    expect(bytes).toMatchObject({ resync: true, events: [] });

    const { last_event_id: later } = await hello(open(), null);
    await service.app.wallboard.changes.transaction(async (_tx, emit) => {
      for (let i = 0; i <= REPLAY_LIMITS.events; i++) emit(notification('c1', `many ${i}`));
    });
    const many = await hello(open(), later);
    expect(many).toMatchObject({ resync: true, events: [] });
    expect(many.last_event_id).toBeGreaterThan(later);
  });
});

describe('rate limits', () => {
  it('refuses a flood of hellos and disconnects the socket, while the service answers others', async () => {
    const flooder = open();
    const bystander = open();
    await hello(bystander, null);
    const answers: { error?: string }[] = [];
    const gone = new Promise<string>((resolve) => flooder.once('disconnect', resolve));
    if (!flooder.connected) await new Promise<void>((resolve) => flooder.once('connect', () => resolve()));
    for (let i = 0; i < 2000; i++) {
      flooder.emit('hello', { device_tag: 'lobby', last_event_id: null }, (answer) => answers.push(answer));
    }
    const [health, reason] = await Promise.all([service.call('GET', '/boards'), gone]);
    expect(health.statusCode).toBe(200);
    expect(reason).toBe('io server disconnect');
    const refused = answers.filter((answer) => /too many hellos/.test(answer.error ?? ''));
    expect(refused.length).toBeGreaterThanOrEqual(HELLO_REFUSALS);
    expect(answers.length - refused.length).toBeLessThanOrEqual(HELLO_RATE.burst);
    // Everything after the cut went unanswered, and cost nothing.
    expect(answers.length).toBeLessThan(100);
    expect((await hello(bystander, null)).error).toBeUndefined();
  });

  it('answers 429 to an address past its unknown tokens; valid tokens keep working', async () => {
    const from = (remoteAddress: string, token: string) =>
      service.app.inject({
        method: 'GET',
        url: '/boards',
        remoteAddress,
        headers: { authorization: `Bearer ${token}` },
      });
    const fresh = await service.tokenOf('readonly');
    for (let i = 0; i < 20; i++) expect((await from('203.0.113.7', `wb_guess-${i}`)).statusCode).toBe(401);
    const limited = await from('203.0.113.7', 'wb_guess-more');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toEqual({
      error: { code: 'rate_limited', message: expect.stringContaining('unknown tokens'), details: [] },
    });
    expect((await from('203.0.113.8', fresh)).statusCode).toBe(200);
    // A token the service knows already passes from that address too (a device behind the same NAT).
    expect((await from('203.0.113.7', ADMIN_SECRET)).statusCode).toBe(200);
  });

  // Last: it uses up this file's loopback address's unknown tokens.
  it('refuses socket connections from an address past its unknown tokens', async () => {
    const attempt = async (token: string) => connectError(open(token));
    for (let i = 0; i < 20; i++) {
      const refused = attempt(`wb_socket-guess-${i}`);
      expect((await refused).message).toContain('a valid token is required');
    }
    const limited = await attempt('wb_socket-guess-more');
    expect(limited.message).toMatch(/too many requests with unknown tokens/);
    expect(limited.data).toMatchObject({ code: 'rate_limited', retry_after: expect.any(Number) });
    const client: Client = open();
    expect((await hello(client, null)).error).toBeUndefined();
  });
});
