import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boardContentSchema, toContentSave, type BoardContent } from '../src/shared/board-content';
import { boardExportSchema } from '../src/shared/board-export';
import type { Variant } from '../src/shared/variants';
import { widgetSchema, type Widget } from '../src/shared/widget';
import { newId } from './ids';
import { eventsAfter, lastEventId, startTestService, type TestService } from './test-support';

/** A custom widget's own code (issue 18) through the widget routes, the editor's save, export, import and duplicate. */

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const CODE = {
  html: '<h1 id="v"></h1>',
  css: 'h1 { color: tomato; }',
  script: "wallboard.onData((d) => { document.getElementById('v').textContent = d.value; });",
};
const place = { column: 0, row: 0, width: 4, height: 4 };

async function insertFlow(variant: Variant, tag = newId(variant)): Promise<{ id: string; tag: string }> {
  const id = newId('flow');
  await service.db.kysely
    .insertInto('flows')
    .values({ id, type: 'default', variant, tag, errored: false, enabled: true, channel_id: 'ch_default' })
    .execute();
  return { id, tag };
}

async function createBoard(): Promise<string> {
  const response = await service.call('POST', '/boards', { name: 'Custom', columns: 10, rows: 5 });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { id: string }).id;
}

async function addWidget(boardId: string, body: Record<string, unknown>): Promise<Widget> {
  const response = await service.call('POST', `/boards/${boardId}/widgets`, body);
  expect(response.statusCode, response.body).toBe(201);
  return widgetSchema.parse(response.json());
}

async function load(id: string): Promise<BoardContent> {
  const response = await service.call('GET', `/boards/${id}/content`);
  expect(response.statusCode, response.body).toBe(200);
  return boardContentSchema.parse(response.json());
}

async function boardChanges(boardId: string, mark: number): Promise<number> {
  const rows = await eventsAfter(service.db, mark, 'board.changed');
  return rows.filter((row) => JSON.stringify(row.payload) === JSON.stringify({ board_id: boardId })).length;
}

describe('a widget’s code through the widget routes', () => {
  it('keeps the code of a custom widget, fills left-out parts with "" and tells screens of changes', async () => {
    const board = await createBoard();
    const flow = await insertFlow('custom');
    const created = await addWidget(board, { flow_id: flow.id, ...place, code: { html: '<p>hi</p>' } });
    expect(created.code).toEqual({ html: '<p>hi</p>', css: '', script: '' });

    const mark = await lastEventId(service.db);
    const patched = await service.call('PATCH', `/boards/${board}/widgets/${created.id}`, { code: CODE });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(widgetSchema.parse(patched.json()).code).toEqual(CODE);
    expect(await boardChanges(board, mark)).toBe(1);
    expect((await load(board)).widgets[0]?.code).toEqual(CODE);

    // Moving leaves the code as it is; null takes it away.
    const moved = await service.call('PATCH', `/boards/${board}/widgets/${created.id}`, { column: 2 });
    expect(widgetSchema.parse(moved.json()).code).toEqual(CODE);
    const cleared = await service.call('PATCH', `/boards/${board}/widgets/${created.id}`, { code: null });
    expect(widgetSchema.parse(cleared.json()).code).toBeNull();
  });

  it('refuses code on any other variant, naming the field, and writes nothing', async () => {
    const board = await createBoard();
    const flow = await insertFlow('value');
    const refused = await service.call('POST', `/boards/${board}/widgets`, {
      flow_id: flow.id,
      ...place,
      code: CODE,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      error: {
        code: 'invalid_request',
        message: 'only a custom widget has code; this widget is a value',
        details: [{ path: 'body.code', message: 'must be null: a value widget runs no code of its own' }],
      },
    });
    expect((await load(board)).widgets).toEqual([]);

    const widget = await addWidget(board, { flow_id: flow.id, ...place, code: null });
    expect(widget.code).toBeNull();
    const patch = await service.call('PATCH', `/boards/${board}/widgets/${widget.id}`, { code: CODE });
    expect(patch.statusCode).toBe(400);
    expect(patch.json()).toMatchObject({ error: { details: [{ path: 'body.code' }] } });
    expect((await load(board)).widgets[0]?.code).toBeNull();
  });

  it('refuses code over 64 KiB with a clear message', async () => {
    const board = await createBoard();
    const flow = await insertFlow('custom');
    const response = await service.call('POST', `/boards/${board}/widgets`, {
      flow_id: flow.id,
      ...place,
      code: { script: 'x'.repeat(65_537) },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: {
        details: [{ path: 'body.code.script', message: 'must be at most 65536 characters of JavaScript' }],
      },
    });
  });

  it('refuses code holding a NUL or a lone surrogate, naming the part, and stores nothing', async () => {
    const board = await createBoard();
    const flow = await insertFlow('custom');
    for (const code of [{ html: '<p>\u0000</p>' }, { css: 'p{}\ud800' }]) {
      const response = await service.call('POST', `/boards/${board}/widgets`, {
        flow_id: flow.id,
        ...place,
        code,
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json<{ error: { details: { path: string }[] } }>().error.details[0]?.path).toBe(
        `body.code.${Object.keys(code)[0]}`,
      );
    }
    expect((await load(board)).widgets).toEqual([]);
  });
});

describe('a widget’s code through the editor’s save', () => {
  it('saves code per widget, clears it when the widget moves to another variant, refuses it elsewhere', async () => {
    const board = await createBoard();
    const custom = await insertFlow('custom');
    const value = await insertFlow('value');
    await addWidget(board, { flow_id: custom.id, ...place });
    const loaded = await load(board);
    const save = toContentSave(loaded);
    const [first] = save.widgets;
    if (!first) throw new Error('no widget');

    const mark = await lastEventId(service.db);
    const saved = await service.call('PUT', `/boards/${board}/content`, {
      ...save,
      widgets: [{ ...first, code: CODE }],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const content = boardContentSchema.parse(saved.json());
    expect(content.widgets[0]?.code).toEqual(CODE);
    expect(await boardChanges(board, mark)).toBe(1);

    // The editor's copy carries the code back as it is.
    const again = toContentSave(content);
    expect(again.widgets[0]?.code).toEqual(CODE);

    // Code on a widget that now shows a value flow: refused, nothing written.
    const refused = await service.call('PUT', `/boards/${board}/content`, {
      ...again,
      widgets: [{ ...again.widgets[0], flow_id: value.id, variant: undefined }],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      error: { details: [{ path: 'body.widgets.0.code', message: expect.stringContaining('must be null') }] },
    });
    expect((await load(board)).widgets[0]?.code).toEqual(CODE);

    // Moved to the value flow without code: its code is gone.
    const moved = await service.call('PUT', `/boards/${board}/content`, {
      ...again,
      widgets: [{ ...again.widgets[0], flow_id: value.id, variant: undefined, code: undefined }],
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(boardContentSchema.parse(moved.json()).widgets[0]).toMatchObject({ variant: 'value', code: null });
  });

  it('keeps the code when the board is duplicated', async () => {
    const board = await createBoard();
    const custom = await insertFlow('custom');
    await addWidget(board, { flow_id: custom.id, ...place, code: CODE });
    const response = await service.call('POST', `/boards/${board}/duplicate`, {});
    expect(response.statusCode, response.body).toBe(201);
    const copy = boardContentSchema.parse(response.json());
    expect(copy.widgets.map((w) => w.code)).toEqual([CODE]);
    expect((await load(copy.board.id)).widgets[0]?.code).toEqual(CODE);
  });
});

describe('a widget’s code through export and import', () => {
  it('exports the code and imports it back', async () => {
    const board = await createBoard();
    const custom = await insertFlow('custom');
    const value = await insertFlow('value');
    await addWidget(board, { flow_id: custom.id, ...place, code: CODE });
    await addWidget(board, { flow_id: value.id, ...place, column: 4 });
    const exported = boardExportSchema.parse((await service.call('GET', `/boards/${board}/export`)).json());
    expect(exported.widgets.map((w) => w.code)).toEqual([CODE, null]);

    const imported = await service.call('POST', '/boards/import', exported);
    expect(imported.statusCode, imported.body).toBe(201);
    const id = (imported.json() as { id: string }).id;
    expect((await load(id)).widgets.map((w) => w.code)).toEqual([CODE, null]);
    expect((await service.call('GET', `/boards/${id}/export`)).json()).toEqual(exported);
  });

  it('imports exports without code (older versions, the original product) with none', async () => {
    const response = await service.call('POST', '/boards/import', {
      name: 'Old',
      columns: 10,
      rows: 5,
      widgets: [{ tag: newId('old'), variant: 'custom', ...place, in_board_index: 0 }],
    });
    expect(response.statusCode, response.body).toBe(201);
    const id = (response.json() as { id: string }).id;
    expect((await load(id)).widgets[0]?.code).toBeNull();
  });

  it('refuses code on a widget that is not custom, leaving nothing behind', async () => {
    const tag = newId('imported');
    const before = await service.db.kysely.selectFrom('boards').select('id').execute();
    const response = await service.call('POST', '/boards/import', {
      name: 'Bad',
      columns: 10,
      rows: 5,
      widgets: [{ flow: { tag, data: {} }, variant: 'value', ...place, in_board_index: 0, code: CODE }],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: { details: [{ path: 'body.widgets.0.code', message: expect.stringContaining('must be null') }] },
    });
    expect(await service.db.kysely.selectFrom('boards').select('id').execute()).toHaveLength(before.length);
    expect(await service.db.kysely.selectFrom('flows').where('tag', '=', tag).select('id').execute()).toEqual(
      [],
    );
  });
});
