import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type {
  ClientToServerEvents,
  HelloAck,
  RealtimeEvent,
  ServerToClientEvents,
} from '../src/shared/events';
import { EventRepository } from './repositories/events';
import { rooms } from './realtime/rooms';
import { ADMIN_SECRET, startTestService, type TestService } from './test-support';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

let service: TestService;
let url: string;
const clients: Client[] = [];

/** One device with a playlist of one board, whose widget shows flow f1; the board uses channel c1. */
async function seed(): Promise<void> {
  const statements = [
    "insert into channels (id, type, name, tag) values ('c1', 'default', 'One', 'one'), ('c2', 'default', 'Two', 'two')",
    "insert into flows (id, type, variant, tag, enabled, channel_id) values ('f1', 'default', 'value', 'cpu', true, 'c1'), ('f2', 'default', 'value', 'mem', true, 'c2')",
    `insert into boards (id, name, settings) values ('b1', 'Ops', '{"channel_ids": ["c1"]}'), ('b2', 'Other', '{"channel_ids": ["c2"]}')`,
    `insert into widgets (id, board_id, flow_id, variant, "column", "row", width, height, in_board_index) values ('w1', 'b1', 'f1', 'value', 0, 0, 4, 4, 0), ('w2', 'b2', 'f2', 'value', 0, 0, 4, 4, 0)`,
    `insert into playlists (id, name, items) values ('p1', 'Loop', '[{"type": "board", "board_id": "b1", "channel_id": null, "duration": 10}]'), ('p2', 'Other', '[{"type": "board", "board_id": "b2", "channel_id": null, "duration": 10}]')`,
    "insert into devices (id, tag, playlist_id) values ('d1', 'lobby', 'p1')",
  ];
  // Plain SQL that both stores read alike (JSON columns take JSON text).
  for (const statement of statements) await sql.raw(statement).execute(service.db.kysely);
}

beforeAll(async () => {
  service = await startTestService();
  await seed();
  await service.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(service.app.server.address() as AddressInfo).port}`;
});
afterEach(() => {
  for (const client of clients.splice(0)) client.disconnect();
});
afterAll(() => service.close());

function open(token: string | null = ADMIN_SECRET): Client {
  const client: Client = connect(url, {
    transports: ['websocket'],
    reconnection: false,
    auth: token === null ? {} : { token },
  });
  clients.push(client);
  return client;
}

async function hello(client: Client, lastEventId: number | null): Promise<HelloAck> {
  return client.emitWithAck('hello', { device_tag: 'lobby', last_event_id: lastEventId });
}

function nextEvent(client: Client): Promise<RealtimeEvent> {
  return new Promise((resolve) => client.once('event', resolve));
}

const notification = (channel: string, title: string) => ({
  type: 'notification.created' as const,
  notification: {
    id: `n-${title}`,
    channel_id: channel,
    title,
    message: 'm',
    icon: null,
    duration: 10,
    sound_url: null,
    created_at: new Date().toISOString(),
  },
});

describe('realtime', () => {
  it('refuses a connection without a valid token', async () => {
    for (const token of [null, 'wb_wrong']) {
      const client = open(token);
      const error = await new Promise<Error>((resolve) => client.once('connect_error', resolve));
      expect(error.message).toContain('a valid token is required');
    }
  });

  it('tells a first hello to resync, then pushes what concerns the device only', async () => {
    const client = open();
    const ack = await hello(client, null);
    expect(ack).toMatchObject({ resync: true, events: [] });
    const received = nextEvent(client);
    await service.app.wallboard.events.publish(notification('c2', 'not for lobby'), [rooms.channel('c2')]);
    await service.app.wallboard.events.publish(notification('c1', 'for lobby'), [rooms.channel('c1')]);
    const event = await received;
    expect(event).toMatchObject({ type: 'notification.created', notification: { title: 'for lobby' } });
    expect(event.id).toBeGreaterThan(ack.last_event_id);
  });

  it('replays what a device missed while away, and only that', async () => {
    const first = open();
    const { last_event_id: seen } = await hello(first, null);
    first.disconnect();
    const { events } = service.app.wallboard;
    await events.publish(notification('c1', 'missed 1'), [rooms.channel('c1')]);
    await events.publish(notification('c2', 'other screen'), [rooms.channel('c2')]);
    await events.publish({ type: 'metrics.changed', flow_id: 'f1', flow_tag: 'cpu', data: { value: 3 } }, [
      rooms.flow('f1'),
    ]);
    const ack = await hello(open(), seen);
    expect(ack.resync).toBe(false);
    expect(ack.events.map((e) => e.type)).toEqual(['notification.created', 'metrics.changed']);
    expect(ack.events[0]).toMatchObject({ notification: { title: 'missed 1' } });
    expect(ack.last_event_id).toBe(ack.events[1]?.id);
  });

  it('asks for a resync when the missed events are no longer kept', async () => {
    const { last_event_id: seen } = await hello(open(), null);
    const { events } = service.app.wallboard;
    for (let i = 0; i < 3; i++) await events.publish(notification('c1', `n${i}`), [rooms.channel('c1')]);
    await new EventRepository(service.db).prune(1, 1024 * 1024);
    expect((await hello(open(), seen)).resync).toBe(true);
    expect((await hello(open(), seen + 1_000_000)).resync).toBe(true);
  });

  it('moves a device to the rooms of its new playlist', async () => {
    const client = open();
    await hello(client, null);
    await service.db.kysely
      .updateTable('devices')
      .set({ playlist_id: 'p2' })
      .where('tag', '=', 'lobby')
      .execute();
    await service.app.wallboard.events.publish({ type: 'device.changed', device_tag: 'lobby' }, [
      rooms.device('lobby'),
    ]);
    await expect
      .poll(async () => (await service.app.realtime.in(rooms.channel('c2')).fetchSockets()).length)
      .toBe(1);
    const received = nextEvent(client);
    await service.app.wallboard.events.publish(notification('c2', 'now yours'), [rooms.channel('c2')]);
    expect(await received).toMatchObject({ notification: { title: 'now yours' } });
  });

  it('answers an invalid hello with an error', async () => {
    const client = open();
    const ack = await client.emitWithAck('hello', { device_tag: '' } as never);
    expect(ack.error).toMatch(/invalid hello/);
  });
});
