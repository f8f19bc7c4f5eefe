import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Play, PlayUpload } from '../src/shared/play';
import { commandsPass, PLAYS_KEEP_DAYS } from './jobs/commands';
import { playsCsv } from './routes/plays';
import { startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';

let service: TestService;
const clock = new FakeClock('2026-11-21T12:00:00.000Z');

beforeAll(async () => {
  service = await startTestService({ clock });
  for (const tag of ['lobby', 'kitchen']) await service.call('POST', '/devices', { tag });
});
afterAll(() => service.close());

function boardPlay(start: string, seconds: number, board = 'brd_1'): PlayUpload {
  const started = new Date(start);
  return {
    id: randomUUID(),
    type: 'board',
    board_id: board,
    url: null,
    channel_id: 'ch_default',
    started_at: started.toISOString(),
    ended_at: new Date(started.getTime() + seconds * 1000).toISOString(),
  };
}

const upload = (tag: string, plays: unknown, token?: string) =>
  service.call('POST', `/devices/${tag}/plays`, plays, token);

const list = async (tag: string, query: string): Promise<Play[]> => {
  const response = await service.call('GET', `/devices/${tag}/plays?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

describe('proof of play', () => {
  it('keeps each play once, however often it is uploaded', async () => {
    const device = await service.tokenOf('affiliated');
    const first = boardPlay('2026-11-21T08:00:00Z', 10);
    const second = {
      id: randomUUID(),
      type: 'image' as const,
      board_id: null,
      url: 'https://cdn.example.com/menu.png',
      channel_id: null,
      started_at: '2026-11-21T08:00:10.000Z',
      ended_at: '2026-11-21T08:00:25.500Z',
    };
    expect((await upload('lobby', [first], device)).json()).toEqual({ received: 1, stored: 1 });
    // The answer to this one was lost: the device sends the whole batch again.
    expect((await upload('lobby', [first, second], device)).json()).toEqual({ received: 2, stored: 1 });
    expect((await upload('lobby', [second], device)).json()).toEqual({ received: 1, stored: 0 });

    expect(await list('lobby', 'from=2026-11-21T07:00:00Z&to=2026-11-21T09:00:00Z')).toEqual([
      { ...first, device_tag: 'lobby', seconds: 10 },
      { ...second, device_tag: 'lobby', seconds: 15.5 },
    ]);
  });

  it('answers the plays that started in [from, to), a day up to now by default', async () => {
    const plays = [
      boardPlay('2026-11-20T11:59:59Z', 5),
      boardPlay('2026-11-20T12:00:00Z', 5),
      boardPlay('2026-11-21T11:59:59Z', 5),
    ];
    await upload('kitchen', plays);
    const ids = (found: Play[]) => found.map((play) => play.id);
    expect(ids(await list('kitchen', ''))).toEqual([plays[1]?.id, plays[2]?.id]);
    expect(ids(await list('kitchen', 'from=2026-11-20T11:59:59Z&to=2026-11-20T12:00:00Z'))).toEqual([
      plays[0]?.id,
    ]);
    expect(ids(await list('kitchen', 'from=2026-11-20T00:00:00Z&limit=2'))).toEqual([
      plays[0]?.id,
      plays[1]?.id,
    ]);
    const backwards = await service.call(
      'GET',
      '/devices/kitchen/plays?from=2026-11-21T00:00:00Z&to=2026-11-20T00:00:00Z',
    );
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().error.details).toEqual([
      { path: 'querystring.from', message: 'must be before to' },
    ]);
  });

  it('answers CSV to accept: text/csv', async () => {
    const response = await service.app.inject({
      method: 'GET',
      url: '/devices/lobby/plays?from=2026-11-21T07:00:00Z&to=2026-11-21T09:00:00Z',
      headers: { authorization: `Bearer ${await service.tokenOf('readonly')}`, accept: 'text/csv' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = response.body.trimEnd().split('\r\n');
    // Excel-safe (service/http/csv.ts): a byte order mark first.
    expect(lines[0]).toBe('\uFEFFid,device_tag,type,board_id,url,channel_id,started_at,ended_at,seconds');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(
      /^[0-9a-f-]{36},lobby,image,,https:\/\/cdn\.example\.com\/menu\.png,,2026-11-21T08:00:10\.000Z,2026-11-21T08:00:25\.500Z,15\.5$/,
    );
    const json = await service.app.inject({
      method: 'GET',
      url: '/devices/lobby/plays?from=2026-11-21T07:00:00Z&to=2026-11-21T09:00:00Z',
      headers: {
        authorization: `Bearer ${await service.tokenOf('readonly')}`,
        accept: 'text/csv;q=0.5, application/json',
      },
    });
    expect(json.headers['content-type']).toMatch(/^application\/json/);
  });

  it('answers CSV only to a client that names it', async () => {
    const readonly = await service.tokenOf('readonly');
    const typeFor = async (accept: string) =>
      (
        await service.app.inject({
          method: 'GET',
          url: '/devices/lobby/plays',
          headers: { authorization: `Bearer ${readonly}`, accept },
        })
      ).headers['content-type'];
    expect(await typeFor('*/*')).toMatch(/^application\/json/);
    expect(await typeFor('text/*')).toMatch(/^text\/csv/);
    expect(await typeFor('text/csv, */*;q=0.1')).toMatch(/^text\/csv/);
    expect(await typeFor('application/json, text/csv')).toMatch(/^application\/json/);
    expect(await typeFor('text/csv;q=0')).toMatch(/^application\/json/);
  });

  it('quotes CSV fields that need it', () => {
    const play = { ...boardPlay('2026-11-21T08:00:00Z', 1), device_tag: 'lobby', seconds: 1 };
    const url = 'https://example.com/a,"b".png';
    const csv = playsCsv([{ ...play, type: 'image', board_id: null, url, channel_id: null }]);
    expect(csv.split('\r\n')[1]).toContain(',"https://example.com/a,""b"".png",');
  });

  it('refuses what cannot be a play, with nothing stored', async () => {
    const noBoard = { ...boardPlay('2026-11-21T08:00:00Z', 1), board_id: null };
    const backwards = { ...boardPlay('2026-11-21T08:00:00Z', 1), ended_at: '2026-11-21T07:00:00Z' };
    const response = await upload('lobby', [boardPlay('2026-11-21T08:30:00Z', 1), noBoard, backwards]);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details).toEqual([
      { path: 'body.1.board_id', message: 'is required for a board' },
      { path: 'body.2.ended_at', message: 'must be after started_at, by at most 7 days' },
    ]);
    expect((await upload('lobby', [])).statusCode).toBe(400);
    expect(await list('lobby', 'from=2026-11-21T08:20:00Z&to=2026-11-21T09:00:00Z')).toEqual([]);
  });

  it("is 404 for another device's bound token and for an unknown device", async () => {
    const bound = await service.call('POST', '/account/tokens', {
      scope: 'affiliated',
      device_tag: 'kitchen',
    });
    const kitchen = bound.json().token as string;
    expect((await upload('lobby', [boardPlay('2026-11-21T08:00:00Z', 1)], kitchen)).statusCode).toBe(404);
    expect((await service.call('GET', '/devices/lobby/plays', undefined, kitchen)).statusCode).toBe(404);
    expect((await upload('kitchen', [boardPlay('2026-11-21T08:00:00Z', 1)], kitchen)).statusCode).toBe(200);
    expect((await upload('nobody', [boardPlay('2026-11-21T08:00:00Z', 1)])).statusCode).toBe(404);
    expect((await service.call('GET', '/devices/nobody/plays')).statusCode).toBe(404);
  });

  it(`keeps ${PLAYS_KEEP_DAYS} days of plays`, async () => {
    const old = boardPlay('2026-11-21T11:00:00Z', 1, 'brd_old');
    await upload('lobby', [old]);
    // The pass as a function, on a clock of the test's own (the app's job would take 132,000 passes).
    const later = new FakeClock(new Date(Date.parse(old.started_at) + PLAYS_KEEP_DAYS * 86_400_000));
    const ctx = { ...service.app.wallboard, clock: later };
    const window = 'from=2026-11-21T10:00:00Z&to=2026-11-21T12:00:00Z';
    await commandsPass(ctx);
    expect(await list('lobby', window)).toHaveLength(1);
    await later.advance(1);
    await commandsPass(ctx);
    expect(await list('lobby', window)).toEqual([]);
  });
});
