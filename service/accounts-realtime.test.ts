import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RealtimeEvent } from '../src/shared/events';
import type { OperatorNotice } from '../src/shared/notices';
import { clientsOf, hello, listen, type Client } from './testing/realtime-clients';
import { startTestService, type AccountCall, type TestService } from './test-support';

// Realtime between two accounts that both have a screen "lobby" showing a board of a channel
// "default": each screen hears its own account's changes, and each console its own account's notices.
let service: TestService;
let other: { id: string; token: string; call: AccountCall };
let url: string;
const clients = clientsOf(() => url);

/** A playlist of one board of its default channel on screen "lobby", in the account `call` acts for. */
async function lobbyShowingNews(call: AccountCall): Promise<{ channel: string; flow: string }> {
  const made = async (url: string, body: unknown) => {
    const response = await call('POST', url, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: string }>().id;
  };
  // The account's own default channel: both accounts have one tagged "default".
  const channels = (await call('GET', '/channels')).json<{ id: string; tag: string }[]>();
  const channel = channels.find((one) => one.tag === 'default')?.id ?? '';
  const flow = await made('/flows', { tag: 'cpu', variant: 'value', channel_id: channel });
  const board = await made('/boards', { name: 'Ops', channel_ids: [channel] });
  await made(`/boards/${board}/widgets`, { flow_id: flow, column: 0, row: 0, width: 4, height: 4 });
  const items = [{ type: 'board', board_id: board, duration: 10 }];
  const playlist = await made('/playlists', { name: 'Loop', items });
  await made('/devices', { tag: 'lobby', playlist_id: playlist });
  return { channel, flow };
}

function heard(client: Client): RealtimeEvent[] {
  const events: RealtimeEvent[] = [];
  client.on('event', (event) => events.push(event));
  return events;
}

beforeAll(async () => {
  service = await startTestService();
  other = await service.addAccount('Other');
  url = await listen(service);
});
afterEach(() => clients.closeAll());
afterAll(() => service.close());

describe('realtime between accounts', () => {
  it("pushes each account's changes to its own screen of a shared tag, and replays only those", async () => {
    const ours = await lobbyShowingNews(service.call);
    const theirs = await lobbyShowingNews(other.call);
    const ourScreen = clients.open();
    const theirScreen = clients.open(other.token);
    const { last_event_id: seen } = await hello(theirScreen, null);
    await hello(ourScreen, null);
    const ourEvents = heard(ourScreen);
    const theirEvents = heard(theirScreen);

    expect(
      (await service.call('POST', `/channels/${ours.channel}/notifications`, { title: 'ours', message: 'm' }))
        .statusCode,
    ).toBe(201);
    expect((await service.call('PUT', '/flows/cpu/metrics', { value: 1 })).statusCode).toBe(200);
    expect(
      (
        await other.call('POST', `/channels/${theirs.channel}/notifications`, {
          title: 'theirs',
          message: 'm',
        })
      ).statusCode,
    ).toBe(201);
    await other.call('PATCH', '/devices/lobby', { name: 'Their lobby' });

    await vi.waitFor(() =>
      expect(theirEvents.map((event) => event.type)).toEqual(['notification.created', 'device.changed']),
    );
    await vi.waitFor(() =>
      expect(ourEvents.map((event) => event.type)).toEqual(['notification.created', 'metrics.changed']),
    );
    expect(JSON.stringify(theirEvents)).not.toContain('ours');

    const replayed = await hello(clients.open(other.token), seen);
    expect(replayed.events.map((event) => event.type)).toEqual(['notification.created', 'device.changed']);
  });

  it("tells each account's consoles of their account's changes only", async () => {
    const ourConsole = clients.open();
    const theirConsole = clients.open(other.token);
    expect(await ourConsole.emitWithAck('watch')).toEqual({ ok: true });
    expect(await theirConsole.emitWithAck('watch')).toEqual({ ok: true });
    const ours: OperatorNotice[] = [];
    const theirs: OperatorNotice[] = [];
    ourConsole.on('notice', (notice) => ours.push(notice));
    theirConsole.on('notice', (notice) => theirs.push(notice));

    await service.call('POST', '/groups', { name: 'Ours only' });
    const group = (await other.call('POST', '/groups', { name: 'Theirs only' })).json<{ id: string }>();
    await vi.waitFor(() => expect(theirs).toEqual([{ resource: 'groups', id: group.id }]));
    await vi.waitFor(() => expect(ours).toHaveLength(1));
    expect(ours[0]?.id).not.toBe(group.id);
  });
});
