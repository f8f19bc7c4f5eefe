import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Play, PlayUpload } from '../src/shared/play';
import { allowWebPlays } from './db/migrations/web-plays';
import { startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';

let service: TestService;
const clock = new FakeClock('2026-11-21T12:00:00.000Z');

beforeAll(async () => {
  service = await startTestService({ clock });
  await service.call('POST', '/devices', { tag: 'lobby' });
});
afterAll(() => service.close());

function webPlay(url: string, start = '2026-11-21T08:00:00.000Z'): PlayUpload {
  return {
    id: randomUUID(),
    type: 'web',
    board_id: null,
    url,
    channel_id: null,
    started_at: start,
    ended_at: new Date(Date.parse(start) + 30_000).toISOString(),
  };
}

const PLAY_COLUMNS = [
  'id',
  'device_id',
  'type',
  'board_id',
  'url',
  'channel_id',
  'started_at',
  'ended_at',
  'received_at',
] as const;

const upload = (plays: unknown) => service.call('POST', '/devices/lobby/plays', plays);

describe('proof of play of web pages', () => {
  it('keeps a web page play and lists it in JSON and CSV', async () => {
    const play = webPlay('http://intranet.example/dashboard?team=ops');
    expect((await upload([play])).json()).toEqual({ received: 1, stored: 1 });

    const listed = await service.call('GET', '/devices/lobby/plays?from=2026-11-21T07:00:00Z');
    expect(listed.json<Play[]>()).toEqual([{ ...play, device_tag: 'lobby', seconds: 30 }]);
    const csv = await service.call('GET', '/devices/lobby/plays?from=2026-11-21T07:00:00Z&format=csv');
    expect(csv.body.trimEnd().split('\r\n')[1]).toBe(
      `${play.id},lobby,web,,http://intranet.example/dashboard?team=ops,,2026-11-21T08:00:00.000Z,2026-11-21T08:00:30.000Z,30`,
    );
  });

  it('refuses a web page play without a web URL, with nothing stored', async () => {
    const library = webPlay('/media/med_1/content', '2026-11-21T09:00:00.000Z');
    const none = { ...webPlay('https://a.example/', '2026-11-21T09:00:00.000Z'), url: null };
    const board = { ...webPlay('https://a.example/', '2026-11-21T09:00:00.000Z'), board_id: 'brd_1' };
    const response = await upload([library, none, board]);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details).toEqual([
      { path: 'body.0.url', message: 'must be an http or https URL for a web page' },
      { path: 'body.1.url', message: 'is required for a web page' },
      { path: 'body.2.board_id', message: 'must be null for a web page' },
    ]);
    const listed = await service.call('GET', '/devices/lobby/plays?from=2026-11-21T08:30:00Z');
    expect(listed.json()).toEqual([]);
  });

  it('keeps the rows, the indexes and the type check when the migration widens the check', async () => {
    const { db } = service;
    // The columns version 9 knows: a later version's (the account) are not its to copy.
    const rows = () => db.kysely.selectFrom('plays').select(PLAY_COLUMNS).orderBy('id').execute();
    const before = await rows();
    expect(before.length).toBeGreaterThan(0);
    // The SQLite path makes the table anew: run again, it must copy every row and index over.
    await db.transaction((tx) => allowWebPlays(tx));
    expect(await rows()).toEqual(before);

    const indexes =
      db.kind === 'postgres'
        ? await sql<{
            name: string;
          }>`select indexname as name from pg_indexes where tablename = 'plays'`.execute(db.kysely)
        : await sql<{
            name: string;
          }>`select name from sqlite_master where type = 'index' and tbl_name = 'plays' and sql is not null`.execute(
            db.kysely,
          );
    expect(indexes.rows.map((row) => row.name).filter((name) => !name.endsWith('_pkey'))).toEqual(
      expect.arrayContaining(['plays_device', 'plays_started']),
    );

    const device = await db.kysely.selectFrom('devices').select('id').executeTakeFirstOrThrow();
    const bogus = sql`insert into plays (id, device_id, type, started_at, ended_at)
      values (${randomUUID()}, ${device.id}, 'audio', ${'2026-11-21T08:00:00.000Z'}, ${'2026-11-21T08:00:01.000Z'})`;
    await expect(bogus.execute(db.kysely)).rejects.toThrow(/check/i);
  });
});
