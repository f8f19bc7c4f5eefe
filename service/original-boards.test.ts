import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Variant } from '../src/shared/variants';
import { newId } from './ids';
import { startTestService, type TestService } from './test-support';

// The original product's boards and widgets as its Go library (GetBoardByName, Board.Save,
// GetBoard, Widget.Save, GetWidget, Widget.Delete) and its Node client (updateBoard,
// updateChannel, the widget calls) send them: docs/compatibility.md.
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

async function made(url: string, body: unknown): Promise<{ id: string }> {
  const response = await service.call('POST', url, body);
  expect(response.statusCode, `${url}: ${response.body}`).toBe(201);
  return response.json();
}

/** A flow written straight to the store: these tests are about boards, not about POST /flows. */
async function flow(tag: string, variant: Variant = 'gauge'): Promise<string> {
  const id = newId('flow');
  await service.db.kysely
    .insertInto('flows')
    .values({ id, type: 'default', variant, tag, errored: false, enabled: true, channel_id: 'ch_default' })
    .execute();
  return id;
}

function refusedNaming(response: { statusCode: number; json: () => unknown }, path: string): void {
  expect(response.statusCode).toBe(400);
  const body = response.json() as { error: { details: { path: string }[] } };
  expect(body.error.details.map((detail) => detail.path)).toContain(path);
}

describe('GET /boards?name= (GetBoardByName)', () => {
  it('answers the boards of exactly that name, and an empty list when none has it', async () => {
    const ops = await made('/boards', { name: 'Ops' });
    await made('/boards', { name: 'Ops 2' });
    await made('/boards', { name: 'ops' });
    const named = await service.call('GET', '/boards?name=Ops');
    expect(named.statusCode).toBe(200);
    expect(named.json<{ id: string }[]>().map((board) => board.id)).toEqual([ops.id]);
    const none = await service.call('GET', '/boards?name=Nobody');
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual([]);
  });

  it.each([
    '/boards?nme=Ops',
    '/boards/b_none?expand=widgets',
    '/boards/b_none/export?format=csv',
    '/boards/b_none/widgets?limit=5',
    '/widgets?board=1',
    '/widgets/w_none?x=1',
    '/channels?name=x',
    '/channels/c_none?x=1',
  ])('refuses a query parameter it does not know: %s', async (url) => {
    const key = new URL(url, 'http://x').searchParams.keys().next().value ?? '';
    refusedNaming(await service.call('GET', url), `querystring.${key}`);
  });
});

describe('POST /boards as Board.Save sends it', () => {
  it('takes widget_background as widget_color, and an empty widgets list', async () => {
    const response = await service.call('POST', '/boards', {
      name: 'Saved by Go',
      theme: 'dark',
      aspect_ratio: 'HDTV',
      widget_background: '#222',
      widget_margins: 4,
      widgets: [],
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ name: 'Saved by Go', widget_color: '#222', widget_margins: 4 });
    expect(response.json()).not.toHaveProperty('widget_background');
    // GetBoard (which boarddump exports) reads it back under the original's name.
    const read = await service.call('GET', `/boards/${response.json<{ id: string }>().id}`);
    expect(read.json()).toMatchObject({ widget_color: '#222', widget_background: '#222' });
  });

  it('takes "" as the theme’s widget colour, and refuses widgets in the body naming the field', async () => {
    const plain = await service.call('POST', '/boards', { name: 'Plain', widget_background: '' });
    expect(plain.statusCode, plain.body).toBe(201);
    expect(plain.json()).toMatchObject({ widget_color: null });
    const read = await service.call('GET', `/boards/${plain.json<{ id: string }>().id}`);
    expect(read.json()).toMatchObject({ widget_background: '' });
    const withWidgets = { name: 'Full', widgets: [{ column: 0, row: 0, width: 2, height: 2 }] };
    refusedNaming(await service.call('POST', '/boards', withWidgets), 'body.widgets');
    refusedNaming(
      await service.call('POST', '/boards', { name: 'x', widget_background: '#12345' }),
      'body.widget_background',
    );
  });
});

describe('an id in a PATCH body (the Node client’s updateBoard, updateChannel)', () => {
  it('takes the path’s own id and drops it, and refuses another naming body.id', async () => {
    const board = await made('/boards', { name: 'Patched' });
    const same = await service.call('PATCH', `/boards/${board.id}`, { id: board.id, name: 'Renamed' });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json()).toMatchObject({ id: board.id, name: 'Renamed' });
    refusedNaming(
      await service.call('PATCH', `/boards/${board.id}`, { id: 'b_other', name: 'X' }),
      'body.id',
    );
    expect((await service.call('GET', `/boards/${board.id}`)).json()).toMatchObject({ name: 'Renamed' });

    const parent = (await service.call('GET', '/channels')).json<{ id: string }[]>()[0]!.id;
    const channel = await made('/channels', { name: 'News', parent_channel_id: parent });
    const renamed = await service.call('PATCH', `/channels/${channel.id}`, {
      id: channel.id,
      name: 'Headlines',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ id: channel.id, name: 'Headlines' });
    refusedNaming(
      await service.call('PATCH', `/channels/${channel.id}`, { id: 'c_other', name: 'X' }),
      'body.id',
    );
  });
});

describe('the flat widget routes', () => {
  it('places, reads, lists, moves and deletes a widget as the Go library and the Node client call them', async () => {
    const board = await made('/boards', { name: 'Flat' });
    const flowId = await flow('flat-gauge');
    // Widget.Save: an empty id, floats for the grid, "" for the default background.
    const saved = await service.call('POST', '/widgets', {
      id: '',
      variant: 'gauge',
      board_id: board.id,
      flow_id: flowId,
      column: 1.0,
      row: 2,
      width: 4.0,
      height: 3,
      in_board_index: 0,
      background: '',
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const widget = saved.json<{ id: string }>();
    expect(widget).toMatchObject({
      id: expect.stringMatching(/^wid_/),
      board_id: board.id,
      flow_id: flowId,
      flow_ids: [flowId],
      variant: 'gauge',
      column: 1,
      row: 2,
      width: 4,
      height: 3,
      background: 'default',
    });
    // The board-scoped routes see the same widget.
    const onBoard = (await service.call('GET', `/boards/${board.id}/widgets`)).json<{ id: string }[]>();
    expect(onBoard.map((w) => w.id)).toEqual([widget.id]);

    const read = await service.call('GET', `/widgets/${widget.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(widget);
    const all = (await service.call('GET', '/widgets')).json<{ id: string }[]>();
    expect(all.map((w) => w.id)).toContain(widget.id);

    const moved = await service.call('PATCH', `/widgets/${widget.id}`, {
      id: widget.id,
      column: 5,
      background: '',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({
      id: widget.id,
      column: 5,
      background: 'default',
      flow_ids: [flowId],
    });
    refusedNaming(await service.call('PATCH', `/widgets/${widget.id}`, { id: 'wid_other' }), 'body.id');
    refusedNaming(await service.call('PATCH', `/widgets/${widget.id}`, { column: 31 }), 'body.width');

    expect((await service.call('DELETE', `/widgets/${widget.id}`)).statusCode).toBe(204);
    expect((await service.call('GET', `/widgets/${widget.id}`)).statusCode).toBe(404);
    expect((await service.call('PATCH', `/widgets/${widget.id}`, { column: 1 })).statusCode).toBe(404);
    expect((await service.call('DELETE', `/widgets/${widget.id}`)).statusCode).toBe(404);
    expect((await service.call('GET', `/boards/${board.id}/widgets`)).json()).toEqual([]);
  });

  it('takes the flow from flow_ids, and refuses what does not fit, naming the field', async () => {
    const board = await made('/boards', { name: 'Flat refusals' });
    const flowId = await flow('flat-value', 'value');
    const place = { board_id: board.id, column: 0, row: 0, width: 2, height: 2 };
    const byIds = await service.call('POST', '/widgets', { ...place, flow_ids: [flowId] });
    expect(byIds.statusCode, byIds.body).toBe(201);
    expect(byIds.json()).toMatchObject({ flow_id: flowId, flow_ids: [flowId], variant: 'value' });

    const cases: [Record<string, unknown>, string][] = [
      [{ ...place, flow_id: flowId, width: 2.5 }, 'body.width'],
      [{ ...place, flow_id: flowId, id: 'wid_mine' }, 'body.id'],
      [{ ...place, flow_id: flowId, flow_ids: ['fl_other'] }, 'body.flow_ids'],
      // Without a flow a variant is needed to make one (service/flowless-widgets.test.ts).
      [{ ...place }, 'body.variant'],
      [{ ...place, flow_id: flowId, variant: 'gauge' }, 'body.variant'],
      [{ ...place, flow_id: flowId, column: 31 }, 'body.width'],
      [{ ...place, flow_id: 'fl_none' }, 'body.flow_id'],
      [{ ...place, flow_id: flowId, board_id: undefined }, 'body.board_id'],
    ];
    for (const [body, path] of cases) refusedNaming(await service.call('POST', '/widgets', body), path);
    expect(
      (await service.call('POST', '/widgets', { ...place, flow_id: flowId, board_id: 'b_none' })).statusCode,
    ).toBe(404);
    expect((await service.call('GET', `/boards/${board.id}/widgets`)).json()).toHaveLength(1);
  });
});

describe('GET /boards/:id (GetBoard, for boarddump)', () => {
  it('answers the board with its widgets, each with flow_ids beside flow_id', async () => {
    const board = await made('/boards', { name: 'Dumped' });
    const flowId = await flow('dumped-gauge');
    const widget = await made(`/boards/${board.id}/widgets`, {
      flow_id: flowId,
      column: 0,
      row: 0,
      width: 4,
      height: 4,
    });
    const response = await service.call('GET', `/boards/${board.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: board.id,
      name: 'Dumped',
      widgets: [{ id: widget.id, board_id: board.id, flow_id: flowId, flow_ids: [flowId], variant: 'gauge' }],
    });
  });
});
