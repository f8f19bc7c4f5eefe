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

interface Shown {
  channel: string;
  flow: string;
  board: string;
  playlist: string;
}

/** A playlist of one board of its default channel on screen "lobby", in the account `call` acts for. */
async function lobbyShowingABoard(call: AccountCall): Promise<Shown> {
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
  return { channel, flow, board, playlist };
}

/** Every kind of realtime event, once each, from a change of what "lobby" shows. */
async function everyChange(call: AccountCall, shown: Shown, title: string): Promise<void> {
  const changes: [string, string, unknown][] = [
    ['POST', `/channels/${shown.channel}/notifications`, { title, message: 'm' }],
    ['PUT', '/flows/cpu/metrics', { value: 1 }],
    ['PATCH', `/flows/${shown.flow}`, { errored: false }],
    ['PATCH', `/boards/${shown.board}`, { name: title }],
    ['PATCH', `/playlists/${shown.playlist}`, { name: title }],
    ['POST', '/devices/lobby/commands', { type: 'identify' }],
    ['PATCH', '/devices/lobby', { name: title }],
  ];
  for (const [method, url, body] of changes) {
    const response = await call(method as 'POST', url, body);
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
  }
}

const EVERY_TYPE = [
  'board.changed',
  'command.created',
  'device.changed',
  'flow.changed',
  'metrics.changed',
  'notification.created',
  'playlist.changed',
];

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
  it('pushes every kind of event to the screen of its own account only, of two of the same tag, and replays only those', async () => {
    const ours = await lobbyShowingABoard(service.call);
    const theirs = await lobbyShowingABoard(other.call);
    const ourScreen = clients.open();
    const theirScreen = clients.open(other.token);
    const { last_event_id: seen } = await hello(theirScreen, null);
    await hello(ourScreen, null);
    const ourEvents = heard(ourScreen);
    const theirEvents = heard(theirScreen);

    await everyChange(service.call, ours, 'ours');
    await everyChange(other.call, theirs, 'theirs');

    const types = (events: RealtimeEvent[]) => events.map((event) => event.type).sort();
    await vi.waitFor(() => expect(types(theirEvents)).toEqual(EVERY_TYPE));
    await vi.waitFor(() => expect(types(ourEvents)).toEqual(EVERY_TYPE));
    // None of the other account's: their payloads name their own resources and titles only.
    for (const id of Object.values(ours)) expect(JSON.stringify(theirEvents)).not.toContain(`"${id}"`);
    expect(JSON.stringify(theirEvents)).not.toContain('ours');

    const replayed = await hello(clients.open(other.token), seen);
    expect(types(replayed.events)).toEqual(EVERY_TYPE);
    expect(JSON.stringify(replayed.events)).not.toContain('ours');
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
