import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boardContentSchema, toContentSave, type BoardContent } from '../src/shared/board-content';
import type { Variant } from '../src/shared/variants';
import type { Database } from './db/database';
import { newId } from './ids';
import { eventsAfter, lastEventId, startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';

// Time stands still: every save lands in the same millisecond, the worst case for updated_at.
const clock = new FakeClock('2026-11-23T10:00:00.000Z');
/**
 * When armed, holds each transaction until `count` of them have begun: saves racing from the same
 * copy then all pass the check made before the transaction, and only the lock tells them apart.
 */
let barrier: { count: number; arrived: number; open: () => void; opened: Promise<void> } | null = null;
function armBarrier(count: number): void {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  barrier = { count, arrived: 0, open, opened };
}
const withBarrier = (db: Database): Database => ({
  ...db,
  async transaction(work) {
    const gate = barrier;
    if (gate) {
      gate.arrived += 1;
      if (gate.arrived === gate.count) gate.open();
      await gate.opened;
    }
    return db.transaction(work);
  },
});

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ clock }, { wrap: withBarrier });
});
afterAll(() => service.close());

async function insertFlow(variant: Variant, tag = newId(variant)): Promise<{ id: string; tag: string }> {
  const id = newId('flow');
  await service.db.kysely
    .insertInto('flows')
    .values({ id, type: 'default', variant, tag, errored: false, enabled: true, channel_id: 'ch_default' })
    .execute();
  return { id, tag };
}

const place = { column: 0, row: 0, width: 4, height: 4 };

/** A 10 x 5 board with a value widget and a gauge widget. */
async function boardWithWidgets(): Promise<BoardContent> {
  const created = await service.call('POST', '/boards', { name: 'Editor', columns: 10, rows: 5 });
  expect(created.statusCode, created.body).toBe(201);
  const id = (created.json() as { id: string }).id;
  const value = await insertFlow('value');
  const gauge = await insertFlow('gauge');
  for (const [flow, column] of [
    [value, 0],
    [gauge, 4],
  ] as const) {
    const response = await service.call('POST', `/boards/${id}/widgets`, {
      flow_id: flow.id,
      ...place,
      column,
    });
    expect(response.statusCode, response.body).toBe(201);
  }
  return load(id);
}

async function load(id: string): Promise<BoardContent> {
  const response = await service.call('GET', `/boards/${id}/content`);
  expect(response.statusCode, response.body).toBe(200);
  return boardContentSchema.parse(response.json());
}

const save = (id: string, body: unknown, token?: string) =>
  service.call('PUT', `/boards/${id}/content`, body, token);

describe('GET /boards/:id/content', () => {
  it('answers the board and its widgets in drawing order', async () => {
    const content = await boardWithWidgets();
    expect(content.board).toMatchObject({ name: 'Editor', columns: 10, rows: 5 });
    expect(content.widgets.map((w) => [w.variant, w.column, w.in_board_index])).toEqual([
      ['value', 0, 0],
      ['gauge', 4, 1],
    ]);
    expect((await service.call('GET', '/boards/board_nope/content')).statusCode).toBe(404);
  });
});

describe('PUT /boards/:id/content', () => {
  it('round-trips: saving what was loaded keeps every widget and moves updated_at on', async () => {
    const content = await boardWithWidgets();
    const mark = await lastEventId(service.db);
    const response = await save(content.board.id, toContentSave(content));
    expect(response.statusCode, response.body).toBe(200);
    const saved = boardContentSchema.parse(response.json());
    expect(saved.widgets).toEqual(content.widgets);
    expect({ ...saved.board, updated_at: null }).toEqual({ ...content.board, updated_at: null });
    // The clock stood still, yet the save is told apart from the copy it replaced.
    expect(Date.parse(saved.board.updated_at)).toBeGreaterThan(Date.parse(content.board.updated_at));
    expect(await load(content.board.id)).toEqual(saved);
    // A device watching the board hears of the save once.
    expect(await eventsAfter(service.db, mark)).toEqual([
      {
        type: 'board.changed',
        payload: { board_id: content.board.id },
        rooms: [`board:${content.board.id}`],
      },
    ]);
  });

  it('updates, creates and deletes widgets and replaces the settings in one save', async () => {
    const content = await boardWithWidgets();
    const [kept, dropped] = content.widgets;
    if (!kept || !dropped) throw new Error('the board has two widgets');
    const graph = await insertFlow('graph');
    const body = toContentSave(content);
    body.board = { ...body.board, name: 'Edited', theme: 'light', columns: 12 };
    body.widgets = [
      { id: kept.id, flow_id: kept.flow_id, ...place, column: 8, width: 4, background: 'none' },
      {
        flow_tag: graph.tag,
        variant: 'graph',
        column: 0,
        row: 1,
        width: 2,
        height: 2,
        background: 'default',
      },
    ];
    const mark = await lastEventId(service.db);
    const response = await save(content.board.id, body);
    expect(response.statusCode, response.body).toBe(200);
    const saved = boardContentSchema.parse(response.json());
    expect(saved.board).toMatchObject({ name: 'Edited', theme: 'light', columns: 12, rows: 5 });
    expect(saved.widgets).toEqual([
      { ...kept, column: 8, width: 4, background: 'none', in_board_index: 0 },
      {
        id: expect.stringMatching(/^wid_/),
        variant: 'graph',
        board_id: content.board.id,
        flow_id: graph.id,
        column: 0,
        row: 1,
        width: 2,
        height: 2,
        in_board_index: 1,
        background: 'default',
        code: null,
      },
    ]);
    expect(await load(content.board.id)).toEqual(saved);
    expect((await eventsAfter(service.db, mark, 'board.changed')).length).toBe(1);
  });

  it('refuses a stale copy with 409, naming the board’s updated_at, and writes nothing', async () => {
    const content = await boardWithWidgets();
    const first = await save(content.board.id, { ...toContentSave(content), board: { name: 'First' } });
    expect(first.statusCode, first.body).toBe(200);
    const now = boardContentSchema.parse(first.json());
    const before = await lastEventId(service.db);
    const stale = await save(content.board.id, { ...toContentSave(content), widgets: [] });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toEqual({
      code: 'conflict',
      message: `the board was changed by someone else since you loaded it, at ${now.board.updated_at}; load it again`,
      details: [
        { path: 'body.updated_at', message: `is not the board's updated_at, ${now.board.updated_at}` },
      ],
    });
    expect(await load(content.board.id)).toEqual(now);
    expect(await lastEventId(service.db)).toBe(before);
  });

  it('refuses a copy loaded before a widget was placed, moved or deleted through the widget routes', async () => {
    const content = await boardWithWidgets();
    const [widget] = content.widgets;
    if (!widget) throw new Error('the board has a widget');
    const writes: ['PATCH' | 'POST' | 'DELETE', string, unknown][] = [
      ['PATCH', `/boards/${content.board.id}/widgets/${widget.id}`, { row: 1 }],
      ['POST', `/boards/${content.board.id}/widgets`, { flow_id: widget.flow_id, ...place }],
      ['DELETE', `/boards/${content.board.id}/widgets/${widget.id}`, undefined],
    ];
    let copy = content;
    for (const [method, url, body] of writes) {
      const response = await service.call(method, url, body);
      expect(response.statusCode, response.body).toBeLessThan(300);
      const stale = await save(content.board.id, toContentSave(copy));
      expect(stale.statusCode, `${method} ${url}`).toBe(409);
      copy = await load(content.board.id);
      expect(Date.parse(copy.board.updated_at)).toBeGreaterThan(Date.parse(content.board.updated_at));
    }
    expect((await save(content.board.id, toContentSave(copy))).statusCode).toBe(200);
  });

  it('lets exactly one of two saves from the same copy win', async () => {
    const content = await boardWithWidgets();
    const body = toContentSave(content);
    armBarrier(2);
    const responses = await Promise.all([
      save(content.board.id, { ...body, board: { ...body.board, name: 'Left' } }),
      save(content.board.id, { ...body, board: { ...body.board, name: 'Right' } }),
    ]);
    barrier = null;
    const codes = responses.map((response) => response.statusCode).sort();
    expect(codes).toEqual([200, 409]);
    const winner = responses.find((response) => response.statusCode === 200);
    const loser = responses.find((response) => response.statusCode === 409);
    expect(loser?.json().error.message).toMatch(/^the board was changed by someone else/);
    expect(await load(content.board.id)).toEqual(boardContentSchema.parse(winner?.json()));
  });

  it('refuses bad widgets with a path for each and writes nothing', async () => {
    const content = await boardWithWidgets();
    const [widget] = content.widgets;
    if (!widget) throw new Error('the board has a widget');
    const graph = await insertFlow('graph');
    const body = toContentSave(content);
    const mark = await lastEventId(service.db);
    const offGrid = await save(content.board.id, {
      ...body,
      widgets: [
        { ...body.widgets[0], column: 8, width: 3 },
        { flow_id: graph.id, ...place, row: 3, background: 'default' },
      ],
    });
    expect(offGrid.statusCode).toBe(400);
    expect(offGrid.json().error.details).toEqual([
      { path: 'body.widgets.0.width', message: "column 8 + width 3 exceeds the board's 10 columns" },
      { path: 'body.widgets.1.height', message: "row 3 + height 4 exceeds the board's 5 rows" },
    ]);
    const badFlows = await save(content.board.id, {
      ...body,
      widgets: [
        { flow_id: 'flow_nope', ...place, background: 'default' },
        { flow_id: graph.id, variant: 'value', ...place, background: 'default' },
        { id: 'wid_nope', flow_id: graph.id, ...place, background: 'default' },
        { flow_tag: 'nope', ...place, background: 'default' },
      ],
    });
    expect(badFlows.statusCode).toBe(400);
    expect(badFlows.json().error).toMatchObject({
      code: 'invalid_request',
      message: 'widget 0: unknown flow flow_nope',
      details: [
        { path: 'body.widgets.0.flow_id', message: 'names no flow' },
        { path: 'body.widgets.1.variant', message: 'must be "graph", the flow\'s variant' },
        { path: 'body.widgets.2.id', message: `names no widget of board ${content.board.id}` },
        { path: 'body.widgets.3.flow_tag', message: 'names no flow' },
      ],
    });
    const fields = await save(content.board.id, {
      ...body,
      widgets: [{ ...body.widgets[0], column: -1, colour: 'red' }, body.widgets[0]],
    });
    expect(fields.statusCode).toBe(400);
    const paths = fields.json().error.details.map((detail: { path: string }) => detail.path);
    expect(paths).toEqual(['body.widgets.0.column', 'body.widgets.0.colour', 'body.widgets.1.id']);
    const twice = await save(content.board.id, { ...body, widgets: [body.widgets[0], body.widgets[0]] });
    expect(twice.json().error.details).toEqual([
      { path: 'body.widgets.1.id', message: 'names a widget given before' },
    ]);
    expect(await load(content.board.id)).toEqual(content);
    expect(await lastEventId(service.db)).toBe(mark);
  });

  it('refuses unknown channels and missing boards', async () => {
    const content = await boardWithWidgets();
    const body = toContentSave(content);
    const channels = await save(content.board.id, {
      ...body,
      board: { ...body.board, channel_ids: ['ch_nope'] },
    });
    expect(channels.statusCode).toBe(400);
    expect(channels.json().error.details[0].path).toBe('body.channel_ids');
    expect((await save('board_nope', body)).statusCode).toBe(404);
    expect(await load(content.board.id)).toEqual(content);
  });
});

describe('POST /boards/:id/duplicate', () => {
  it('copies the board and its widgets, showing the same flows', async () => {
    const content = await boardWithWidgets();
    const response = await service.call('POST', `/boards/${content.board.id}/duplicate`, {});
    expect(response.statusCode, response.body).toBe(201);
    const copy = boardContentSchema.parse(response.json());
    expect(copy.board.id).not.toBe(content.board.id);
    const { id: _a, name: _b, created_at: _c, updated_at: _d, ...settings } = content.board;
    expect(copy.board).toMatchObject({ ...settings, name: 'Editor (copy)', id: copy.board.id });
    const strip = ({ id: _id, board_id: _board, ...rest }: BoardContent['widgets'][number]) => rest;
    expect(copy.widgets.map(strip)).toEqual(content.widgets.map(strip));
    expect(copy.widgets.every((widget) => widget.board_id === copy.board.id)).toBe(true);
    expect(await load(copy.board.id)).toEqual(copy);
    expect(await load(content.board.id)).toEqual(content);
    const bare = await service.call('POST', `/boards/${content.board.id}/duplicate`);
    expect(bare.statusCode, bare.body).toBe(201);
    expect(bare.json().board.name).toBe('Editor (copy)');
    const named = await service.call('POST', `/boards/${content.board.id}/duplicate`, { name: 'Lobby' });
    expect(named.json().board.name).toBe('Lobby');
    expect((await service.call('POST', '/boards/board_nope/duplicate', {})).statusCode).toBe(404);
  });
});

describe('OpenAPI', () => {
  it('describes the editor routes', async () => {
    const openapi = (await service.call('GET', '/openapi.json', undefined, null)).json();
    expect(Object.keys(openapi.paths['/boards/{id}/content'])).toEqual(['get', 'put']);
    expect(Object.keys(openapi.paths['/boards/{id}/duplicate'])).toEqual(['post']);
  });
});

describe('permissions', () => {
  it('lets a readonly token load a board but not save or duplicate it', async () => {
    const content = await boardWithWidgets();
    const readonly = await service.tokenOf('readonly');
    expect(
      (await service.call('GET', `/boards/${content.board.id}/content`, undefined, readonly)).statusCode,
    ).toBe(200);
    expect((await save(content.board.id, toContentSave(content), readonly)).statusCode).toBe(403);
    const duplicate = await service.call('POST', `/boards/${content.board.id}/duplicate`, {}, readonly);
    expect(duplicate.statusCode).toBe(403);
    expect(await load(content.board.id)).toEqual(content);
  });
});
