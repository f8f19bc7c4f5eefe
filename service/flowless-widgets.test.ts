import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultInjector, startTestService, type TestService } from './test-support';

// The original product's widgets could have no flow (a clock, a box). Its Go library's
// ImportBoard places such a widget with POST /widgets and no flow at all, and its boarddump
// exports it with "flow": null: here each gets a new flow of its variant (docs/api/boards.md).
let service: TestService;
const faults = new FaultInjector();
beforeAll(async () => {
  service = await startTestService({}, { wrap: faults.wrap });
});
afterAll(() => service.close());

interface FlatWidget {
  id: string;
  flow_id: string;
  flow_ids: string[];
  variant: string;
}

async function board(name: string): Promise<string> {
  const response = await service.call('POST', '/boards', { name });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string }>().id;
}

/** What Widget.Save sends for a widget without a flow: Go's omitempty drops every flow field. */
const goWidget = (boardId: string, variant: string, extra: Record<string, unknown> = {}) => ({
  variant,
  board_id: boardId,
  column: 0,
  row: 0,
  width: 4,
  height: 3,
  in_board_index: 2,
  background: '',
  ...extra,
});

async function placed(body: Record<string, unknown>): Promise<FlatWidget> {
  const response = await service.call('POST', '/widgets', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function flowOf(widget: FlatWidget): Promise<{ tag: string; variant: string; channel_id: string }> {
  const response = await service.call('GET', `/flows/${widget.flow_id}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function flowCount(): Promise<number> {
  const row = await service.db.kysely
    .selectFrom('flows')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function refusedNaming(response: { statusCode: number; body: string }, path: string): void {
  expect(response.statusCode, response.body).toBe(400);
  const body = JSON.parse(response.body) as { error: { details: { path: string }[] } };
  expect(body.error.details.map((detail) => detail.path)).toContain(path);
}

describe('POST /widgets without a flow (Widget.Save of a clock)', () => {
  it('makes a flow of the variant, without data, in the default channel, and places the widget on it', async () => {
    const boardId = await board('Ops Room');
    const widget = await placed(goWidget(boardId, 'clock'));
    expect(widget).toMatchObject({
      id: expect.stringMatching(/^wid_/),
      board_id: boardId,
      variant: 'clock',
      flow_ids: [widget.flow_id],
      column: 0,
      row: 0,
      width: 4,
      height: 3,
      in_board_index: 2,
      background: 'default',
    });
    expect(await flowOf(widget)).toMatchObject({
      tag: 'ops-room-clock',
      variant: 'clock',
      channel_id: 'ch_default',
    });
    const data = await service.call('GET', '/flows/ops-room-clock/metrics');
    expect(data.statusCode, data.body).toBe(200);
    expect(data.json()).toEqual({});
    // GetBoard (boarddump) lists it with its flow.
    const read = await service.call('GET', `/boards/${boardId}`);
    expect(read.json()).toMatchObject({
      widgets: [{ id: widget.id, variant: 'clock', flow_id: widget.flow_id, flow_ids: [widget.flow_id] }],
    });
    // Our own route stays strict: the console makes the flow first and names it.
    const { board_id: _board, ...onBoard } = goWidget(boardId, 'clock');
    refusedNaming(await service.call('POST', `/boards/${boardId}/widgets`, onBoard), 'body.flow_id');
  });

  it('suffixes the tag when it is taken, and makes one of any board name', async () => {
    const boardId = await board('Ops Floor');
    const taken = await service.call('POST', '/flows', { tag: 'ops-floor-box', variant: 'box' });
    expect(taken.statusCode, taken.body).toBe(201);
    const tags = [];
    for (const variant of ['box', 'box', 'clock']) {
      tags.push((await flowOf(await placed(goWidget(boardId, variant)))).tag);
    }
    expect(tags).toEqual(['ops-floor-box-2', 'ops-floor-box-3', 'ops-floor-clock']);
    const accents = await flowOf(await placed(goWidget(await board('Café été'), 'clock')));
    expect(accents.tag).toBe('cafe-ete-clock');
    const punctuation = await flowOf(await placed(goWidget(await board('!!!'), 'box')));
    expect(punctuation.tag).toBe('box');
  });

  it('refuses a widget without a flow and without a variant, naming body.variant, and makes nothing', async () => {
    const boardId = await board('No variant');
    const before = await flowCount();
    const { variant: _variant, ...body } = goWidget(boardId, 'clock');
    refusedNaming(await service.call('POST', '/widgets', body), 'body.variant');
    expect(await flowCount()).toBe(before);
    expect((await service.call('GET', `/boards/${boardId}/widgets`)).json()).toEqual([]);
  });

  it('leaves no flow behind when the widget is refused or its write fails', async () => {
    const boardId = await board('Too small');
    const before = await flowCount();
    refusedNaming(
      await service.call('POST', '/widgets', goWidget(boardId, 'clock', { column: 30 })),
      'body.width',
    );
    expect(await flowCount()).toBe(before);
    // The flow is written first: a widget that cannot be written takes it back with it.
    faults.failWhen((write) => write.kind === 'insert' && write.table === 'widgets');
    try {
      const failed = await service.call('POST', '/widgets', goWidget(boardId, 'clock'));
      expect(failed.statusCode).toBeGreaterThanOrEqual(500);
    } finally {
      faults.heal();
    }
    expect(await flowCount()).toBe(before);
    expect((await service.call('GET', '/flows/too-small-clock')).statusCode).toBe(404);
    expect((await service.call('GET', `/boards/${boardId}/widgets`)).json()).toEqual([]);
  });
});

describe('POST /boards/import of a widget without a flow (boarddump output)', () => {
  it('makes a new flow for "flow": null and for a widget naming none, beside the tags the import names', async () => {
    const place = { column: 0, row: 0, width: 4, height: 3, background: '' };
    const response = await service.call('POST', '/boards/import', {
      name: 'Dumped Wall',
      theme: 'dark',
      widget_background: '',
      widgets: [
        { flow: null, variant: 'clock', ...place, in_board_index: 0 },
        { flow: { tag: 'dumped-wall-clock', data: {} }, variant: 'clock', ...place, in_board_index: 1 },
        { variant: 'box', ...place, in_board_index: 2 },
      ],
    });
    expect(response.statusCode, response.body).toBe(201);
    const imported = response.json<{ id: string; widgets: { flow: { tag: string }; variant: string }[] }>();
    expect(imported.widgets.map((w) => [w.flow.tag, w.variant])).toEqual([
      ['dumped-wall-clock-2', 'clock'],
      ['dumped-wall-clock', 'clock'],
      ['dumped-wall-box', 'box'],
    ]);
    const read = (await service.call('GET', `/boards/${imported.id}`)).json<{ widgets: FlatWidget[] }>();
    expect(read.widgets).toHaveLength(3);
    for (const widget of read.widgets) expect(widget.flow_ids).toEqual([widget.flow_id]);

    // A bare tag that is not one is refused, not read as no flow; nothing is made.
    const before = await flowCount();
    const badTag = { tag: 'Not a tag!', variant: 'clock', ...place };
    const refused = await service.call('POST', '/boards/import', { name: 'Bad tag', widgets: [badTag] });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(await flowCount()).toBe(before);
  });
});
