import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PlayUpload } from '../src/shared/play';
import { ADMIN_SECRET, startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';

let service: TestService;
const clock = new FakeClock('2026-11-21T12:00:00.000Z');

const play = (start: string, url: string): PlayUpload => ({
  id: randomUUID(),
  type: 'image',
  board_id: null,
  url,
  channel_id: null,
  started_at: start,
  ended_at: new Date(Date.parse(start) + 10_000).toISOString(),
});

beforeAll(async () => {
  service = await startTestService({ clock });
  await service.call('POST', '/devices', { tag: 'lobby' });
  const plays = [
    play('2026-11-21T08:00:00.000Z', 'https://cdn.example.com/a,"quoted".png'),
    play('2026-11-21T08:00:10.000Z', 'https://cdn.example.com/b.png'),
    play('2026-11-21T10:00:00.000Z', 'https://cdn.example.com/c.png'),
  ];
  expect((await service.call('POST', '/devices/lobby/plays', plays)).json()).toEqual({
    received: 3,
    stored: 3,
  });
});
afterAll(() => service.close());

const get = (query: string, accept?: string) =>
  service.app.inject({
    method: 'GET',
    url: `/devices/lobby/plays?${query}`,
    headers: { authorization: `Bearer ${ADMIN_SECRET}`, ...(accept ? { accept } : {}) },
  });

it('answers a CSV download to format=csv, with the same filters as JSON', async () => {
  const range = 'from=2026-11-21T07:00:00Z&to=2026-11-21T09:00:00Z';
  const response = await get(`${range}&format=csv`);
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(response.headers['content-disposition']).toBe(
    'attachment; filename="plays-lobby-2026-11-21-to-2026-11-21.csv"',
  );
  const lines = response.body.split('\r\n');
  // A byte order mark first, so that Excel reads UTF-8 (service/http/csv.ts).
  expect(lines[0]).toBe('\uFEFFid,device_tag,type,board_id,url,channel_id,started_at,ended_at,seconds');
  expect(lines[1]).toContain(
    ',lobby,image,,"https://cdn.example.com/a,""quoted"".png",,2026-11-21T08:00:00.000Z,',
  );
  expect(lines.slice(1)).toHaveLength(3); // two rows and the final line break
  const json = (await get(range)).json() as { id: string }[];
  expect(lines.slice(1, -1).map((line) => line.split(',')[0])).toEqual(json.map((p) => p.id));
  const limited = await get(`${range}&limit=1&format=csv`);
  expect(limited.body.trimEnd().split('\r\n')).toHaveLength(2);
});

it('lets format=json win over an Accept that asks for CSV, and refuses other formats', async () => {
  const json = await get('format=json', 'text/csv');
  expect(json.headers['content-type']).toMatch(/^application\/json/);
  const accept = await get('', 'text/csv');
  expect(accept.headers['content-disposition']).toMatch(/^attachment; filename="plays-lobby-/);
  const bad = await get('format=xml');
  expect(bad.statusCode).toBe(400);
  expect(bad.json().error.details[0]).toMatchObject({ path: 'querystring.format' });
});
