import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EventRepository } from './repositories/events';
import { rooms } from './realtime/rooms';
import {
  clientsOf,
  connectError,
  hello,
  listen,
  nextEvent,
  notification,
  seed,
} from './testing/realtime-clients';
import { startTestService, type TestService } from './test-support';

let service: TestService;
let url: string;
const clients = clientsOf(() => url);
const open = clients.open;

beforeAll(async () => {
  service = await startTestService();
  await seed(service);
  url = await listen(service);
});
afterEach(() => clients.closeAll());
afterAll(() => service.close());

describe('realtime', () => {
  it('refuses a connection without a valid token', async () => {
    for (const token of [null, 'wb_wrong']) {
      const error = await connectError(open(token));
      expect(error.message).toContain('a valid token is required');
    }
  });

  it('tells a first hello to resync, then pushes what concerns the device only', async () => {
    const client = open();
    const ack = await hello(client, null);
    expect(ack).toMatchObject({ resync: true, events: [] });
    const received = nextEvent(client);
    await service.app.wallboard.changes.publish(notification('c2', 'not for lobby'));
    await service.app.wallboard.changes.publish(notification('c1', 'for lobby'));
    const event = await received;
    expect(event).toMatchObject({ type: 'notification.created', notification: { title: 'for lobby' } });
    expect(event.id).toBeGreaterThan(ack.last_event_id);
  });

  it('replays what a device missed while away, and only that', async () => {
    const first = open();
    const { last_event_id: seen } = await hello(first, null);
    first.disconnect();
    const events = service.app.wallboard.changes;
    await events.publish(notification('c1', 'missed 1'));
    await events.publish(notification('c2', 'other screen'));
    await events.publish({ type: 'metrics.changed', flow_id: 'f1', flow_tag: 'cpu', data: { value: 3 } });
    const ack = await hello(open(), seen);
    expect(ack.resync).toBe(false);
    expect(ack.events.map((e) => e.type)).toEqual(['notification.created', 'metrics.changed']);
    expect(ack.events[0]).toMatchObject({ notification: { title: 'missed 1' } });
    expect(ack.last_event_id).toBe(ack.events[1]?.id);
  });

  it('asks for a resync when the missed events are no longer kept', async () => {
    const { last_event_id: seen } = await hello(open(), null);
    const events = service.app.wallboard.changes;
    for (let i = 0; i < 3; i++) await events.publish(notification('c1', `n${i}`));
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
    await service.app.wallboard.changes.publish({ type: 'device.changed', device_tag: 'lobby' });
    await expect
      .poll(async () => (await service.app.realtime.in(rooms.channel('c2')).fetchSockets()).length)
      .toBe(1);
    const received = nextEvent(client);
    await service.app.wallboard.changes.publish(notification('c2', 'now yours'));
    expect(await received).toMatchObject({ notification: { title: 'now yours' } });
  });

  it('answers an invalid hello with an error', async () => {
    const client = open();
    const ack = await client.emitWithAck('hello', { device_tag: '' } as never);
    expect(ack.error).toMatch(/invalid hello/);
  });

  it('disconnects the sockets of a token at its deletion: they hear nothing more', async () => {
    const secret = await service.tokenOf('readonly');
    const tokens = (await service.call('GET', '/account/tokens?scope=readonly')).json() as { id: string }[];
    const id = tokens[0]!.id;
    const doomed = open(secret);
    const kept = open();
    await Promise.all([hello(doomed, null), hello(kept, null)]);
    const heard: string[] = [];
    doomed.on('event', (event) => heard.push(event.type));
    const gone = new Promise<string>((resolve) => doomed.once('disconnect', resolve));
    expect((await service.call('DELETE', `/account/tokens/${id}`)).statusCode).toBe(204);
    expect(await gone).toBe('io server disconnect');
    const received = nextEvent(kept);
    // Both sockets said hello as lobby, whatever it plays by now: its own room.
    await service.app.wallboard.changes.publish({ type: 'device.changed', device_tag: 'lobby' });
    expect(await received).toMatchObject({ type: 'device.changed', device_tag: 'lobby' });
    expect(heard).toEqual([]);
    // Its reconnection is refused, as before.
    expect((await connectError(open(secret))).message).toContain('a valid token is required');
  });
});
