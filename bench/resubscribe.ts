// bench/resubscribe: what a playlist edit costs with N screens connected. The service runs in
// this process (a fresh embedded data folder on loopback, or PostgreSQL: --postgres for a
// throwaway cluster with fsync on, or --database-url) so that every
// statement its store runs is counted (Kysely's log); the N socket.io clients run here too. They
// say hello as N devices playing one playlist, which is then switched between two boards E times.
// Per edit: the statements run, those that found the screens' rooms, the time from the PATCH
// being sent until every screen has the `playlist.changed` event, and until every screen is in
// the rooms of the new board. Floors of the same run: finding the N devices' rooms the way the
// service did before (four statements per socket, one socket after another), beside the way it
// does now; and the event's own fan-out, which moving the screens must not outlast by much.
// Usage: npm run bench:resubscribe -- [--screens 1000] [--edits 10] [--postgres | --database-url <url>]
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { LogEvent } from 'kysely';
import { buildApp } from '../service/app';
import { ensureToken } from '../service/bootstrap';
import { openStore } from '../service/db/open';
import { rooms } from '../service/realtime/rooms';
import { roomsOfDevice, roomsOfDevices } from '../service/realtime/subscriptions';
import { createTestDatabase } from '../service/test-support';
import { durablePostgresServer, fsyncOf } from './durable-postgres';
import { connected, openAudience, type BenchSocket } from './fanout';
import { apiRequest } from './processes';
import { report } from './report';
import { formatMs, quantile, table } from './stats';

const { values } = parseArgs({
  options: {
    screens: { type: 'string', default: '1000' },
    edits: { type: 'string', default: '10' },
    postgres: { type: 'boolean', default: false },
    'database-url': { type: 'string' },
  },
});
const SCREENS = Number(values.screens);
const EDITS = Number(values.edits);
const TOKEN = 'bench-admin-token-0123456789';
const testDatabase = values.postgres ? await createTestDatabase(durablePostgresServer()) : undefined;
const DATABASE_URL = testDatabase?.url ?? values['database-url'];
/**
 * Statements that find rooms: two per 1,000 devices (with their groups, then the playlists they
 * may play) and two per 1,000 boards, whatever N is.
 */
const TARGETS = { roomQueries: 4 * Math.ceil(SCREENS / 1000), findingOfFloor: 0.25, movedOfFanout: 2 };

// The four statements of realtime/subscriptions.ts, told apart from the edit's own.
const ROOM_QUERY =
  /from "devices" as "d" left join "groups"|^select "id", "items" from "playlists"|^select "id", "settings" from "boards"|^select distinct "board_id", "flow_id" from "widgets"/;
const counts = { all: 0, rooms: 0 };
const countQuery = (event: LogEvent) => {
  counts.all += 1;
  if (ROOM_QUERY.test(event.query.sql)) counts.rooms += 1;
};
const take = () => {
  const taken = { ...counts };
  counts.all = 0;
  counts.rooms = 0;
  return taken;
};

const dir = await mkdtemp(join(tmpdir(), 'wallboard-bench-resubscribe-'));
const db = await openStore(
  DATABASE_URL ? { databaseUrl: DATABASE_URL, log: countQuery } : { dataDir: dir, log: countQuery },
);
await ensureToken(db, TOKEN, 'full', 'bench');
const app = await buildApp({ db });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

const request = <T>(method: string, path: string, body?: unknown) =>
  apiRequest<T>(base, TOKEN, method, path, body);

// Two boards, each with a widget of its own flow; one playlist; N devices playing it.
const boards: string[] = [];
for (const name of ['a', 'b']) {
  await request('POST', '/flows', { tag: `bench_${name}`, variant: 'value' });
  const board = await request<{ id: string }>('POST', '/boards', { name: `Bench ${name}` });
  await request('POST', `/boards/${board.id}/widgets`, {
    flow_tag: `bench_${name}`,
    column: 0,
    row: 0,
    width: 4,
    height: 4,
  });
  boards.push(board.id);
}
const itemsOf = (board: string) => [{ type: 'board', board_id: board, channel_id: null, duration: 10 }];
const playlist = await request<{ id: string }>('POST', '/playlists', {
  name: 'Bench',
  items: itemsOf(boards[0]!),
});
const tags = Array.from({ length: SCREENS }, (_, i) => `bench-screen-${i}`);
for (let start = 0; start < SCREENS; start += 50) {
  await Promise.all(
    tags
      .slice(start, start + 50)
      .map((tag) => request('POST', '/devices', { tag, playlist_id: playlist.id })),
  );
}

// Finding every screen's rooms the way the service did before, one socket after another (the
// floor), and the way it does now: the median of 3 and of 5 rounds.
const timed = async (rounds: number, find: () => Promise<unknown>) => {
  const times: number[] = [];
  take();
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    await find();
    times.push(performance.now() - start);
  }
  return { ms: quantile(times, 0.5), statements: take().all / rounds };
};
const perSocket = await timed(3, async () => {
  for (const tag of tags) await roomsOfDevice(db, tag);
});
const batched = await timed(5, () => roomsOfDevices(db, tags));

// The screens: each says hello as its device and counts the playlist.changed events it hears.
const heard = new Map<number, number>();
take();
const helloStart = performance.now();
const audience = await openAudience(base, SCREENS, TOKEN, async (socket: BenchSocket, index) => {
  socket.on('event', (event) => {
    if (event.type === 'playlist.changed') heard.set(event.id, (heard.get(event.id) ?? 0) + 1);
  });
  await connected(socket);
  await socket.emitWithAck('hello', { device_tag: tags[index]!, last_event_id: null });
});
const helloMs = performance.now() - helloStart;
const helloCounts = take();

const roomSize = (room: string) => app.realtime.sockets.adapter.rooms.get(room)?.size ?? 0;
const until = async (done: () => boolean) => {
  const deadline = performance.now() + 30_000;
  while (!done()) {
    if (performance.now() > deadline) throw new Error('not done within 30 s');
    await new Promise((resolve) => setImmediate(resolve));
  }
  return performance.now();
};

interface Edit {
  all: number;
  rooms: number;
  eventMs: number;
  roomsMs: number;
}
const edits: Edit[] = [];
for (let n = 0; n < EDITS; n++) {
  const [from, to] = n % 2 === 0 ? [boards[0]!, boards[1]!] : [boards[1]!, boards[0]!];
  await new Promise((resolve) => setTimeout(resolve, 50));
  take();
  const before = Math.max(0, ...heard.keys());
  const sent = performance.now();
  await request('PATCH', `/playlists/${playlist.id}`, { items: itemsOf(to) });
  const everyEvent = until(() => [...heard].some(([id, count]) => id > before && count === SCREENS));
  const everyRoom = until(() => roomSize(rooms.board(to)) === SCREENS && roomSize(rooms.board(from)) === 0);
  const [eventAt, roomsAt] = await Promise.all([everyEvent, everyRoom]);
  // Anything still running (there should be nothing) is counted too.
  await new Promise((resolve) => setTimeout(resolve, 20));
  edits.push({ ...take(), eventMs: eventAt - sent, roomsMs: roomsAt - sent });
}

const store = DATABASE_URL ? `PostgreSQL, fsync ${await fsyncOf(DATABASE_URL)}` : 'embedded store';
process.stdout.write(`bench:resubscribe: ${SCREENS} screens on one playlist, ${EDITS} edits (${store})\n\n`);
process.stdout.write(
  `${table([
    ['edit', 'statements', 'finding rooms', 'every screen has the event', 'every screen in its new rooms'],
    ...edits.map((edit, n) => [
      String(n + 1),
      String(edit.all),
      String(edit.rooms),
      formatMs(edit.eventMs),
      formatMs(edit.roomsMs),
    ]),
  ])}\n`,
);
const median = (pick: (edit: Edit) => number) => quantile(edits.map(pick), 0.5);
const [eventP50, movedP50] = [median((edit) => edit.eventMs), median((edit) => edit.roomsMs)];
const worstRooms = Math.max(...edits.map((edit) => edit.rooms));
process.stdout.write('\n');
await report(DATABASE_URL ? 'resubscribe (PostgreSQL)' : 'resubscribe', [
  {
    name: 'statements finding rooms per edit (most), beside per socket as before',
    value: worstRooms,
    floor: perSocket.statements,
    unit: 'statements',
    target: `<= ${TARGETS.roomQueries}`,
    met: worstRooms <= TARGETS.roomQueries,
  },
  {
    name: `finding the rooms of ${SCREENS} screens (${batched.statements} statements), beside per socket`,
    value: batched.ms,
    floor: perSocket.ms,
    unit: 'ms',
    target: `ratio <= ${TARGETS.findingOfFloor}`,
    met: batched.ms <= TARGETS.findingOfFloor * perSocket.ms,
  },
  {
    name: 'PATCH sent to every screen in its new rooms (p50), beside every screen having the event',
    value: movedP50,
    floor: eventP50,
    unit: 'ms',
    target: `ratio <= ${TARGETS.movedOfFanout}`,
    met: movedP50 <= TARGETS.movedOfFanout * eventP50,
  },
  {
    name: `${SCREENS} hellos (100 connections at a time): statements finding rooms, beside per socket`,
    value: helloCounts.rooms,
    floor: SCREENS * 4,
    unit: 'statements',
  },
  { name: `${SCREENS} hellos (100 connections at a time)`, value: helloMs, unit: 'ms' },
]);

audience.close();
await app.close();
await db.close();
await rm(dir, { recursive: true, force: true });
await testDatabase?.drop();
