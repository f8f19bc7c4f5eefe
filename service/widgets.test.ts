import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { widgetSchema, type Widget } from '../src/shared/widget';
import type { Variant } from '../src/shared/variants';
import { newId } from './ids';
import { eventsAfter, startTestService, type TestService } from './test-support';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

async function createBoard(body: Record<string, unknown> = {}): Promise<string> {
  const response = await service.call('POST', '/boards', { name: 'Widgets', ...body });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { id: string }).id;
}

async function insertFlow(variant: string, tag = newId(variant)): Promise<{ id: string; tag: string }> {
  const id = newId('flow');
  await service.db.kysely
    .insertInto('flows')
    .values({
      id,
      type: 'default',
      variant: variant as Variant,
      tag,
      errored: false,
      enabled: true,
      channel_id: 'ch_default',
    })
    .execute();
  return { id, tag };
}

async function addWidget(boardId: string, body: Record<string, unknown>): Promise<Widget> {
  const response = await service.call('POST', `/boards/${boardId}/widgets`, body);
  expect(response.statusCode, response.body).toBe(201);
  return widgetSchema.parse(response.json());
}

async function boardEvents(boardId: string): Promise<number> {
  const rows = await eventsAfter(service.db, 0);
  return rows.filter(
    (row) =>
      row.type === 'board.changed' &&
      JSON.stringify(row.payload) === JSON.stringify({ board_id: boardId }) &&
      JSON.stringify(row.rooms) === JSON.stringify([`board:${boardId}`]),
  ).length;
}

const place = { column: 0, row: 0, width: 4, height: 4 };

describe('creating widgets', () => {
  it('places a widget by flow id, taking the flow variant and stacking on top', async () => {
    const board = await createBoard();
    const flow = await insertFlow('gauge');
    const first = await addWidget(board, { flow_id: flow.id, ...place });
    expect(first).toEqual({
      id: expect.stringMatching(/^wid_/),
      variant: 'gauge',
      board_id: board,
      flow_id: flow.id,
      ...place,
      in_board_index: 0,
      background: 'default',
      code: null,
    });
    const second = await addWidget(board, { flow_tag: flow.tag, variant: 'gauge', ...place, column: 4 });
    expect(second.in_board_index).toBe(1);
    const pinned = await addWidget(board, {
      flow_id: flow.id,
      ...place,
      in_board_index: 10,
      background: '#333',
    });
    expect(pinned).toMatchObject({ in_board_index: 10, background: '#333' });
    expect((await addWidget(board, { flow_id: flow.id, ...place })).in_board_index).toBe(11);
    expect(await boardEvents(board)).toBe(4);
  });

  it('fits a widget to the exact edge of the grid, counting from 0', async () => {
    const board = await createBoard({ columns: 10, rows: 5 });
    const flow = await insertFlow('value');
    const widget = await addWidget(board, { flow_id: flow.id, column: 0, row: 0, width: 10, height: 5 });
    expect(widget).toMatchObject({ column: 0, width: 10 });
    await addWidget(board, { flow_id: flow.id, column: 9, row: 4, width: 1, height: 1 });
  });

  it('refuses a widget off the grid, naming the side', async () => {
    const board = await createBoard({ columns: 10, rows: 5 });
    const flow = await insertFlow('value');
    const wide = await service.call('POST', `/boards/${board}/widgets`, {
      flow_id: flow.id,
      column: 8,
      row: 0,
      width: 3,
      height: 1,
    });
    expect(wide.statusCode).toBe(400);
    expect(wide.json().error.details).toEqual([
      { path: 'body.width', message: "column 8 + width 3 exceeds the board's 10 columns" },
    ]);
    const tall = await service.call('POST', `/boards/${board}/widgets`, {
      flow_id: flow.id,
      column: 0,
      row: 3,
      width: 1,
      height: 3,
    });
    expect(tall.statusCode).toBe(400);
    expect(tall.json().error.details[0].path).toBe('body.height');
    expect((await service.call('GET', `/boards/${board}/widgets`)).json()).toEqual([]);
  });

  it('refuses a variant other than the flow’s, and unknown flows', async () => {
    const board = await createBoard();
    const flow = await insertFlow('graph');
    const mismatch = await service.call('POST', `/boards/${board}/widgets`, {
      flow_id: flow.id,
      variant: 'value',
      ...place,
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error.details).toEqual([
      { path: 'body.variant', message: expect.stringContaining('graph') },
    ]);
    const byId = await service.call('POST', `/boards/${board}/widgets`, { flow_id: 'flow_nope', ...place });
    expect(byId.statusCode).toBe(400);
    expect(byId.json().error.details[0].path).toBe('body.flow_id');
    const byTag = await service.call('POST', `/boards/${board}/widgets`, { flow_tag: 'nope', ...place });
    expect(byTag.statusCode).toBe(400);
    expect(byTag.json().error.details[0].path).toBe('body.flow_tag');
  });

  it('refuses unknown fields, a missing flow and bad placements', async () => {
    const board = await createBoard();
    const flow = await insertFlow('value');
    const cases: [Record<string, unknown>, string][] = [
      [{ flow_id: flow.id, ...place, colour: 'red' }, 'body.colour'],
      [{ ...place }, 'body.flow_id'],
      [{ flow_id: flow.id, flow_tag: flow.tag, ...place }, 'body.flow_id'],
      [{ flow_id: flow.id, ...place, column: -1 }, 'body.column'],
      [{ flow_id: flow.id, ...place, width: 0 }, 'body.width'],
      [{ flow_id: flow.id, ...place, background: 'plaid!' }, 'body.background'],
      [{ flow_id: flow.id, column: 0, row: 0, width: 4 }, 'body.height'],
    ];
    for (const [body, path] of cases) {
      const response = await service.call('POST', `/boards/${board}/widgets`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      const paths = response.json().error.details.map((d: { path: string }) => d.path);
      expect(paths, JSON.stringify(body)).toContain(path);
    }
  });

  it('answers 404 for an unknown board', async () => {
    const flow = await insertFlow('value');
    const response = await service.call('POST', '/boards/board_nope/widgets', { flow_id: flow.id, ...place });
    expect(response.statusCode).toBe(404);
    expect((await service.call('GET', '/boards/board_nope/widgets')).statusCode).toBe(404);
  });
});

describe('listing, moving and deleting widgets', () => {
  it('lists the widgets of a board in drawing order', async () => {
    const board = await createBoard();
    const other = await createBoard();
    const flow = await insertFlow('text');
    const top = await addWidget(board, { flow_id: flow.id, ...place, in_board_index: 5 });
    const bottom = await addWidget(board, { flow_id: flow.id, ...place, in_board_index: 1 });
    await addWidget(other, { flow_id: flow.id, ...place });
    const response = await service.call('GET', `/boards/${board}/widgets`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([bottom, top]);
  });

  it('moves, resizes and restacks a widget within the grid', async () => {
    const board = await createBoard();
    const flow = await insertFlow('value');
    const widget = await addWidget(board, { flow_id: flow.id, ...place });
    const before = await boardEvents(board);
    const moved = await service.call('PATCH', `/boards/${board}/widgets/${widget.id}`, {
      column: 24,
      row: 12,
      width: 8,
      height: 8,
      in_board_index: 3,
      background: 'none',
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toEqual({
      ...widget,
      column: 24,
      row: 12,
      width: 8,
      height: 8,
      in_board_index: 3,
      background: 'none',
    });
    expect(await boardEvents(board)).toBe(before + 1);

    const off = await service.call('PATCH', `/boards/${board}/widgets/${widget.id}`, { width: 9 });
    expect(off.statusCode).toBe(400);
    expect(off.json().error.details[0].path).toBe('body.width');
    const down = await service.call('PATCH', `/boards/${board}/widgets/${widget.id}`, { row: 13 });
    expect(down.statusCode).toBe(400);
    expect(down.json().error.details[0].path).toBe('body.height');

    const unknown = await service.call('PATCH', `/boards/${board}/widgets/${widget.id}`, {
      flow_id: flow.id,
    });
    expect(unknown.statusCode).toBe(400);
    const listed = (await service.call('GET', `/boards/${board}/widgets`)).json();
    expect(listed).toEqual([moved.json()]);
  });

  it('answers 404 for a widget that is not on the board', async () => {
    const board = await createBoard();
    const other = await createBoard();
    const flow = await insertFlow('value');
    const widget = await addWidget(other, { flow_id: flow.id, ...place });
    expect(
      (await service.call('PATCH', `/boards/${board}/widgets/${widget.id}`, { row: 1 })).statusCode,
    ).toBe(404);
    expect((await service.call('DELETE', `/boards/${board}/widgets/${widget.id}`)).statusCode).toBe(404);
    expect(
      (await service.call('PATCH', `/boards/board_nope/widgets/${widget.id}`, { row: 1 })).statusCode,
    ).toBe(404);
  });

  it('deletes a widget, keeping its flow', async () => {
    const board = await createBoard();
    const flow = await insertFlow('value');
    const widget = await addWidget(board, { flow_id: flow.id, ...place });
    const before = await boardEvents(board);
    const response = await service.call('DELETE', `/boards/${board}/widgets/${widget.id}`);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await service.call('GET', `/boards/${board}/widgets`)).json()).toEqual([]);
    expect(
      await service.db.kysely.selectFrom('flows').select('id').where('id', '=', flow.id).execute(),
    ).toHaveLength(1);
    expect(await boardEvents(board)).toBe(before + 1);
    expect((await service.call('DELETE', `/boards/${board}/widgets/${widget.id}`)).statusCode).toBe(404);
  });
});

describe('widget permissions', () => {
  it('lets readonly and affiliated tokens list widgets but not change them', async () => {
    const board = await createBoard();
    const flow = await insertFlow('value');
    const widget = await addWidget(board, { flow_id: flow.id, ...place });
    for (const scope of ['readonly', 'affiliated'] as const) {
      const token = await service.tokenOf(scope);
      expect((await service.call('GET', `/boards/${board}/widgets`, undefined, token)).statusCode).toBe(200);
      const create = await service.call(
        'POST',
        `/boards/${board}/widgets`,
        { flow_id: flow.id, ...place },
        token,
      );
      expect(create.statusCode, scope).toBe(403);
      const update = await service.call('PATCH', `/boards/${board}/widgets/${widget.id}`, { row: 1 }, token);
      expect(update.statusCode, scope).toBe(403);
      const remove = await service.call('DELETE', `/boards/${board}/widgets/${widget.id}`, undefined, token);
      expect(remove.statusCode, scope).toBe(403);
    }
    expect((await service.call('GET', `/boards/${board}/widgets`)).json()).toEqual([widget]);
  });
});
