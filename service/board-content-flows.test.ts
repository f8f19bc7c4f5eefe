import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boardContentSchema, toContentSave, type BoardContent } from '../src/shared/board-content';
import { eventsAfter, lastEventId, startTestService, type TestService } from './test-support';

// The console's one Save: a board's new widgets get their flows, and its widgets' data is
// written, in the save's transaction. A board never saved, or a save refused, leaves no flow.

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const place = { column: 0, row: 0, width: 4, height: 4, background: 'default' } as const;

async function newBoard(name: string): Promise<BoardContent> {
  const created = await service.call('POST', '/boards', { name, columns: 10, rows: 5 });
  expect(created.statusCode, created.body).toBe(201);
  const response = await service.call('GET', `/boards/${(created.json() as { id: string }).id}/content`);
  return boardContentSchema.parse(response.json());
}

const flowTags = async () =>
  (await service.db.kysely.selectFrom('flows').select('tag').execute()).map((row) => row.tag);

const metricsOf = async (tag: string) => (await service.call('GET', `/flows/${tag}/metrics`)).json();

describe('PUT /boards/:id/content with flows and data', () => {
  it('creates the new widgets’ flows with their data, in the save', async () => {
    const content = await newBoard('Ops floor');
    const mark = await lastEventId(service.db);
    const body = {
      ...toContentSave(content),
      flows: [{ tag: 'ops-floor-value', variant: 'value', data: { title: 'Open tickets', value: 42 } }],
      widgets: [{ flow_tag: 'ops-floor-value', variant: 'value', ...place }],
    };
    const response = await service.call('PUT', `/boards/${content.board.id}/content`, body);
    expect(response.statusCode, response.body).toBe(200);
    const saved = boardContentSchema.parse(response.json());
    const flow = (await service.call('GET', '/flows/ops-floor-value')).json() as { id: string };
    expect(saved.widgets.map((widget) => widget.flow_id)).toEqual([flow.id]);
    expect(await metricsOf('ops-floor-value')).toEqual({ title: 'Open tickets', value: 42 });
    expect((await eventsAfter(service.db, mark, 'board.changed')).length).toBe(1);
  });

  it('writes new data for a flow it shows, announced to the screens', async () => {
    const content = await newBoard('Lobby');
    const first = await service.call('PUT', `/boards/${content.board.id}/content`, {
      ...toContentSave(content),
      flows: [{ tag: 'lobby-tickertape', variant: 'tickertape', data: { messages: ['Welcome'] } }],
      widgets: [{ flow_tag: 'lobby-tickertape', variant: 'tickertape', ...place }],
    });
    expect(first.statusCode, first.body).toBe(200);
    const loaded = boardContentSchema.parse(first.json());
    const mark = await lastEventId(service.db);
    const second = await service.call('PUT', `/boards/${content.board.id}/content`, {
      ...toContentSave(loaded),
      data: [{ tag: 'lobby-tickertape', data: { messages: ['Fire drill at 3 pm'] } }],
    });
    expect(second.statusCode, second.body).toBe(200);
    expect(await metricsOf('lobby-tickertape')).toEqual({ messages: ['Fire drill at 3 pm'] });
    expect(await eventsAfter(service.db, mark, 'metrics.changed')).toHaveLength(1);
  });

  it('leaves no flow behind when the save is refused', async () => {
    const content = await newBoard('Refused');
    const before = await flowTags();
    const stale = { ...toContentSave(content), updated_at: '2020-01-01T00:00:00.000Z' };
    const withFlow = {
      flows: [{ tag: 'refused-value', variant: 'value', data: { value: 1 } }],
      widgets: [{ flow_tag: 'refused-value', variant: 'value', ...place }],
    };
    const conflict = await service.call('PUT', `/boards/${content.board.id}/content`, {
      ...stale,
      ...withFlow,
    });
    expect(conflict.statusCode).toBe(409);
    // Data that does not fit, on a flow the save makes or on one that exists: nothing is written.
    const badNew = await service.call('PUT', `/boards/${content.board.id}/content`, {
      ...toContentSave(content),
      ...withFlow,
      flows: [{ tag: 'refused-value', variant: 'value', data: { value: [1] } }],
    });
    expect(badNew.statusCode).toBe(400);
    expect(badNew.json()).toMatchObject({
      error: { details: [expect.objectContaining({ path: 'body.flows.0.data.value' })] },
    });
    const badData = await service.call('PUT', `/boards/${content.board.id}/content`, {
      ...toContentSave(content),
      ...withFlow,
      data: [{ tag: 'ops-floor-value', data: { value: { not: 'a number' } } }],
    });
    expect(badData.statusCode).toBe(400);
    expect(await flowTags()).toEqual(before);
    expect(await metricsOf('ops-floor-value')).toEqual({ title: 'Open tickets', value: 42 });
  });

  it('refuses a flow named twice', async () => {
    const content = await newBoard('Twice');
    const response = await service.call('PUT', `/boards/${content.board.id}/content`, {
      ...toContentSave(content),
      flows: [{ tag: 'twice-value', variant: 'value' }],
      data: [{ tag: 'twice-value', data: { value: 1 } }],
    });
    expect(response.statusCode).toBe(400);
    expect(await flowTags()).not.toContain('twice-value');
  });
});
