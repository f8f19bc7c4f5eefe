import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DeviceHistoryEntry, DeviceHistoryPage } from '../src/shared/device-history';
import { heartbeatSchema } from '../src/shared/device';
import { sampleHeartbeat } from '../src/shared/testing/device-fixtures';
import { PLAYS_KEEP_DAYS } from './jobs/commands';
import { sweepIntervalMs } from './jobs/service-jobs';
import { SOCKET_GRACE_MS } from './realtime/presence';
import { startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';
import { clientsOf, hello, listen } from './testing/realtime-clients';

const clock = new FakeClock('2026-11-21T09:00:00.000Z');
let service: TestService;
let url: string;
const clients = clientsOf(() => url);
const DAY_MS = 86_400_000;

beforeAll(async () => {
  service = await startTestService({ clock, config: { offlineAfterSeconds: 90 } });
  url = await listen(service);
});
afterEach(() => clients.closeAll());
afterAll(() => service.close());

const beat = (showing: string, more: object = {}) =>
  service.call(
    'POST',
    `/devices/lobby/heartbeat`,
    heartbeatSchema.parse({ ...sampleHeartbeat(showing), ...more }),
  );

async function history(tag: string, query = ''): Promise<DeviceHistoryPage> {
  const response = await service.call('GET', `/devices/${tag}/history${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const kinds = (entries: DeviceHistoryEntry[]) => entries.map(({ kind, detail }) => `${kind} ${detail}`);

describe('status history', () => {
  it('records coming online, what it shows when that changes, new failures and recoveries', async () => {
    expect((await service.call('POST', '/devices', { tag: 'lobby' })).statusCode).toBe(201);
    expect(await history('lobby')).toEqual({ entries: [], next_before: null });
    await beat('board:b1');
    await beat('board:b1');
    await clock.advance(1000);
    const failure = {
      item: 'image:https://cdn.example.com/x.png',
      reason: 'did not decode',
      at: clock.now().toISOString(),
    };
    await beat('image:https://cdn.example.com/y.png', {
      failures: [failure],
      recoveries: ['renderer reloaded'],
    });
    // The same failure again, in the next heartbeat: not new.
    await beat('image:https://cdn.example.com/y.png', { failures: [failure] });
    expect((await service.call('POST', '/devices/lobby/offline')).statusCode).toBe(200);

    const { entries } = await history('lobby');
    expect(kinds(entries)).toEqual([
      'offline the device said it goes offline',
      'recovery renderer reloaded',
      'failure image:https://cdn.example.com/x.png: did not decode',
      'showing image:https://cdn.example.com/y.png',
      'showing board:b1',
      'online heartbeat from 127.0.0.1',
    ]);
    expect(entries[0]?.at).toBe(clock.now().toISOString());
    expect(entries.at(-1)?.at).toBe('2026-11-21T09:00:00.000Z');
  });

  it('records the sweep of silent devices and a socket gone past its grace', async () => {
    await beat('board:b1');
    await clock.advance(90_000 + sweepIntervalMs(90));
    expect(kinds((await history('lobby', '?limit=3')).entries)).toEqual([
      'offline no heartbeat for 90 s',
      'showing board:b1',
      'online heartbeat from 127.0.0.1',
    ]);

    await beat('board:b1');
    const socket = clients.open();
    expect((await hello(socket, null, 'lobby')).error).toBeUndefined();
    socket.disconnect();
    await vi.waitFor(async () => {
      const sockets = await service.app.realtime.fetchSockets();
      expect(sockets.filter((s) => s.data.deviceTag === 'lobby')).toHaveLength(0);
    });
    await clock.advance(SOCKET_GRACE_MS);
    expect(kinds((await history('lobby', '?limit=1')).entries)).toEqual([
      'offline its connection was lost and did not come back',
    ]);
  });

  it('pages newest first with before=next_before', async () => {
    const all = (await history('lobby', '?limit=1000')).entries;
    expect(all.length).toBeGreaterThan(5);
    const seen: DeviceHistoryEntry[] = [];
    let page = await history('lobby', '?limit=4');
    seen.push(...page.entries);
    while (page.next_before !== null) {
      page = await history('lobby', `?limit=4&before=${page.next_before}`);
      seen.push(...page.entries);
    }
    expect(seen).toEqual(all);
    expect([...all].sort((a, b) => b.seq - a.seq)).toEqual(all);
  });

  it('answers bad queries, unknown devices and other devices of a bound token clearly', async () => {
    const bad = await service.call('GET', '/devices/lobby/history?limit=0');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0]).toMatchObject({
      path: 'querystring.limit',
      message: 'must be at least 1',
    });
    expect((await service.call('GET', '/devices/lobby/history?before=x')).statusCode).toBe(400);
    const unknown = await service.call('GET', '/devices/nowhere/history');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('device nowhere not found');
    expect((await service.call('POST', '/devices', { tag: 'other' })).statusCode).toBe(201);
    const bound = await service.call('POST', '/account/tokens', {
      scope: 'affiliated',
      name: 'other',
      device_tag: 'other',
    });
    const secret = bound.json().token as string;
    expect((await service.call('GET', '/devices/lobby/history', undefined, secret)).statusCode).toBe(404);
    expect((await service.call('GET', '/devices/other/history', undefined, secret)).statusCode).toBe(200);
  });

  it('is pruned with the plays, after the same days', async () => {
    const before = (await history('lobby', '?limit=1000')).entries.length;
    expect(before).toBeGreaterThan(0);
    await clock.jump((PLAYS_KEEP_DAYS + 1) * DAY_MS);
    const cutoff = clock.now().getTime() - PLAYS_KEEP_DAYS * DAY_MS;
    const left = (await history('lobby', '?limit=1000')).entries;
    expect(left.every((entry) => Date.parse(entry.at) >= cutoff)).toBe(true);
    expect(left.length).toBeLessThan(before);
  });
});
