import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventsAfter as loggedAfter,
  lastEventId as lastLoggedId,
  startTestService,
  type TestService,
} from './test-support';

let service: TestService;
let readonly: string;
let affiliated: string;
beforeAll(async () => {
  service = await startTestService();
  readonly = await service.tokenOf('readonly');
  affiliated = await service.tokenOf('affiliated');
});
afterAll(() => service.close());

interface EventRow {
  type: string;
  payload: Record<string, unknown>;
  rooms: string[];
}

const lastEventId = () => lastLoggedId(service.db);
const eventsAfter = (mark: number): Promise<EventRow[]> => loggedAfter(service.db, mark);

async function createFlow(body: Record<string, unknown>) {
  const response = await service.call('POST', '/flows', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; tag: string; channel_id: string | null; enabled: boolean };
}

describe('creating flows', () => {
  it('creates a flow in the default channel, enabled at once without a source', async () => {
    const response = await service.call('POST', '/flows', { tag: 'cpu', variant: 'gauge' });
    expect(response.statusCode).toBe(201);
    const flow = response.json();
    expect(flow).toEqual({
      id: expect.stringMatching(/^fl_/),
      embed_id: expect.stringMatching(/^fl_/),
      type: 'default',
      variant: 'gauge',
      tag: 'cpu',
      errored: false,
      enabled: true,
      channel_id: 'ch_default',
      source: null,
      parameters: null,
      created_at: expect.stringMatching(/Z$/),
    });
    expect(flow).not.toHaveProperty('data');
    expect((await service.call('GET', `/flows/${flow.id}`)).json()).toEqual(flow);
    expect((await service.call('GET', '/flows')).json()).toContainEqual(flow);
  });

  it('is disabled while a source has no parameters, enabled once it has them', async () => {
    expect((await createFlow({ tag: 'sourced', variant: 'value', source: 'script-1' })).enabled).toBe(false);
    const ready = await createFlow({
      tag: 'sourced-ready',
      variant: 'value',
      source: 'script-1',
      parameters: { url: 'https://example.com' },
    });
    expect(ready).toMatchObject({
      enabled: true,
      source: 'script-1',
      parameters: { url: 'https://example.com' },
    });
  });

  it('takes another existing channel, or none when channel_id is null', async () => {
    const channel = (
      await service.call('POST', '/channels', { name: 'Flow home', parent_channel_id: 'ch_default' })
    ).json();
    expect((await createFlow({ tag: 'homed', variant: 'text', channel_id: channel.id })).channel_id).toBe(
      channel.id,
    );
    expect((await createFlow({ tag: 'homeless', variant: 'text', channel_id: null })).channel_id).toBeNull();
  });

  it('refuses an unknown channel with 400 naming body.channel_id', async () => {
    const response = await service.call('POST', '/flows', {
      tag: 'lost',
      variant: 'value',
      channel_id: 'ch_nope',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'invalid_request',
      details: [{ path: 'body.channel_id' }],
    });
    expect((await service.call('GET', '/flows')).json()).not.toContainEqual(
      expect.objectContaining({ tag: 'lost' }),
    );
  });

  it('refuses a duplicate tag with 409', async () => {
    await createFlow({ tag: 'twice', variant: 'value' });
    const response = await service.call('POST', '/flows', { tag: 'twice', variant: 'gauge' });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('twice'),
    });
  });

  it('refuses bad bodies with details naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ tag: 'x', variant: 'sparkles' }, 'body.variant'],
      [{ tag: 'has space', variant: 'value' }, 'body.tag'],
      [{ variant: 'value' }, 'body.tag'],
      [{ tag: 'x', variant: 'value', type: 'other' }, 'body.type'],
      [{ tag: 'x', variant: 'value', parameters: [1] }, 'body.parameters'],
    ];
    for (const [body, path] of cases) {
      const response = await service.call('POST', '/flows', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    const unknown = await service.call('POST', '/flows', { tag: 'x', variant: 'value', colour: 'red' });
    expect(unknown.statusCode).toBe(400);
  });

  it('answers 404 for an unknown flow', async () => {
    expect((await service.call('GET', '/flows/fl_nope')).statusCode).toBe(404);
    expect((await service.call('PATCH', '/flows/fl_nope', { errored: true })).statusCode).toBe(404);
    expect((await service.call('DELETE', '/flows/fl_nope')).statusCode).toBe(404);
  });
});

describe('updating flows', () => {
  it('changes tag, channel and errored, and publishes flow.changed', async () => {
    const flow = await createFlow({ tag: 'to-patch', variant: 'value' });
    const mark = await lastEventId();
    const response = await service.call('PATCH', `/flows/${flow.id}`, {
      tag: 'patched',
      errored: true,
      channel_id: null,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: flow.id, tag: 'patched', errored: true, channel_id: null });
    expect(await eventsAfter(mark)).toEqual([
      { type: 'flow.changed', payload: { flow_id: flow.id }, rooms: [`flow:${flow.id}`] },
    ]);
    const back = await service.call('PATCH', `/flows/${flow.id}`, { channel_id: 'ch_default' });
    expect(back.json().channel_id).toBe('ch_default');
    const quiet = await lastEventId();
    const empty = await service.call('PATCH', `/flows/${flow.id}`, {});
    expect(empty.json()).toEqual(back.json());
    expect(await eventsAfter(quiet)).toEqual([]);
  });

  it('decides enabled again when source or parameters change', async () => {
    const flow = await createFlow({ tag: 'ready-later', variant: 'value', source: 'script-2' });
    expect(flow.enabled).toBe(false);
    const patch = (body: Record<string, unknown>) => service.call('PATCH', `/flows/${flow.id}`, body);
    expect((await patch({ parameters: { every: '5m' } })).json()).toMatchObject({ enabled: true });
    expect((await patch({ source: 'script-3', parameters: null })).json()).toMatchObject({ enabled: false });
    expect((await patch({ source: null })).json()).toMatchObject({ enabled: true, source: null });
    expect((await patch({ errored: false })).json()).toMatchObject({ enabled: true });
  });

  it('refuses a taken tag (409), an unknown channel (400) and bad fields (400)', async () => {
    const flow = await createFlow({ tag: 'mine', variant: 'value' });
    await createFlow({ tag: 'theirs', variant: 'value' });
    expect((await service.call('PATCH', `/flows/${flow.id}`, { tag: 'theirs' })).statusCode).toBe(409);
    const channel = await service.call('PATCH', `/flows/${flow.id}`, { channel_id: 'ch_nope' });
    expect(channel.statusCode).toBe(400);
    expect(channel.json().error.details).toEqual([{ path: 'body.channel_id', message: expect.any(String) }]);
    const variant = await service.call('PATCH', `/flows/${flow.id}`, { variant: 'gauge' });
    expect(variant.statusCode).toBe(400);
    const errored = await service.call('PATCH', `/flows/${flow.id}`, { errored: 'yes' });
    expect(errored.json().error.details[0].path).toBe('body.errored');
    expect((await service.call('GET', `/flows/${flow.id}`)).json().tag).toBe('mine');
  });
});

describe('deleting flows', () => {
  it('deletes the flow and its widgets, and tells the boards that showed it', async () => {
    const flow = await createFlow({ tag: 'shown', variant: 'value' });
    for (const board of ['b_one', 'b_two', 'b_none']) {
      await service.db.kysely
        .insertInto('boards')
        .values({ id: board, name: board, settings: '{}' })
        .execute();
    }
    for (const [id, board] of [
      ['w_1', 'b_one'],
      ['w_2', 'b_one'],
      ['w_3', 'b_two'],
    ]) {
      await service.db.kysely
        .insertInto('widgets')
        .values({
          id: id as string,
          board_id: board as string,
          flow_id: flow.id,
          variant: 'value',
          column: 0,
          row: 0,
          width: 4,
          height: 4,
          in_board_index: 0,
        })
        .execute();
    }
    const mark = await lastEventId();
    const response = await service.call('DELETE', `/flows/${flow.id}`);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(
      await service.db.kysely.selectFrom('widgets').select('id').where('flow_id', '=', flow.id).execute(),
    ).toEqual([]);
    expect(await eventsAfter(mark)).toEqual([
      { type: 'board.changed', payload: { board_id: 'b_one' }, rooms: ['board:b_one'] },
      { type: 'board.changed', payload: { board_id: 'b_two' }, rooms: ['board:b_two'] },
      { type: 'flow.changed', payload: { flow_id: flow.id }, rooms: [`flow:${flow.id}`] },
    ]);
    expect((await service.call('GET', `/flows/${flow.id}`)).statusCode).toBe(404);
    expect((await service.call('DELETE', `/flows/${flow.id}`)).statusCode).toBe(404);
  });
});

describe('flow permissions', () => {
  it('lets readonly tokens read, and refuses every write with 403', async () => {
    const flow = await createFlow({ tag: 'guarded', variant: 'value' });
    expect((await service.call('GET', '/flows', undefined, readonly)).statusCode).toBe(200);
    expect((await service.call('GET', `/flows/${flow.id}`, undefined, readonly)).statusCode).toBe(200);
    expect((await service.call('POST', '/flows', { tag: 'ro', variant: 'value' }, readonly)).statusCode).toBe(
      403,
    );
    expect((await service.call('PATCH', `/flows/${flow.id}`, { errored: true }, readonly)).statusCode).toBe(
      403,
    );
    expect((await service.call('DELETE', `/flows/${flow.id}`, undefined, readonly)).statusCode).toBe(403);
  });

  it('lets affiliated tokens read but not create, update or delete flows', async () => {
    const flow = await createFlow({ tag: 'guarded-2', variant: 'value' });
    expect((await service.call('GET', '/flows', undefined, affiliated)).statusCode).toBe(200);
    const created = await service.call('POST', '/flows', { tag: 'aff', variant: 'value' }, affiliated);
    expect(created.statusCode).toBe(403);
    expect(created.json().error.code).toBe('forbidden');
    expect((await service.call('PATCH', `/flows/${flow.id}`, { errored: true }, affiliated)).statusCode).toBe(
      403,
    );
    expect((await service.call('DELETE', `/flows/${flow.id}`, undefined, affiliated)).statusCode).toBe(403);
    expect((await service.call('GET', `/flows/${flow.id}`)).json().errored).toBe(false);
  });

  it('answers 401 without a token', async () => {
    expect((await service.call('GET', '/flows', undefined, null)).statusCode).toBe(401);
  });
});

describe('OpenAPI', () => {
  it('describes the flow, channel, notification and metrics routes', async () => {
    const response = await service.call('GET', '/openapi.json', undefined, null);
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json().paths)).toEqual(
      expect.arrayContaining([
        '/flows',
        '/flows/{id}',
        '/channels',
        '/channels/{id}',
        '/notifications',
        '/channels/{id}/notifications',
        '/channels/{channel_id}/notifications',
        '/flows/{tag}/notifications',
        '/notifications/{id}',
        '/flows/{tag}/metrics',
        '/flows/{tag}/data',
        '/metrics',
        '/flows/{tag}/error',
      ]),
    );
  });
});
