import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOARD_DEFAULTS, boardSchema, type Board } from '../src/shared/board';
import { boardExportSchema } from '../src/shared/board-export';
import type { Variant } from '../src/shared/variants';
import { fromJson, toJson } from './db/dialect';
import { newId } from './ids';
import { eventsAfter, startTestService, type TestService } from './test-support';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

async function createBoard(body: Record<string, unknown> = {}): Promise<Board> {
  const response = await service.call('POST', '/boards', { name: 'Ops', ...body });
  expect(response.statusCode, response.body).toBe(201);
  return boardSchema.parse(response.json());
}

async function insertFlow(tag: string, variant: string, data: object = {}, errored = false): Promise<string> {
  const id = newId('flow');
  await service.db.kysely
    .insertInto('flows')
    .values({
      id,
      type: 'default',
      variant: variant as Variant,
      tag,
      errored,
      enabled: true,
      channel_id: 'ch_default',
      data: toJson(data),
    })
    .execute();
  return id;
}

async function addWidget(boardId: string, body: Record<string, unknown>) {
  const response = await service.call('POST', `/boards/${boardId}/widgets`, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string };
}

const eventsOf = (type: string) => eventsAfter(service.db, 0, type);

describe('creating and reading boards', () => {
  it('fills every default and answers in the board shape', async () => {
    const board = await createBoard({ name: '  Sales  ' });
    expect(board).toMatchObject({
      ...BOARD_DEFAULTS,
      name: 'Sales',
      widget_margins: 3,
      widget_padding: 8,
      font_family: 'normal',
      columns: 32,
      rows: 20,
      size: [1920, 1080],
      channel_ids: ['ch_default'],
    });
    expect(board.id).toMatch(/^board_/);
    // Read alone, a board also carries its widgets and widget_background (the original product's
    // GetBoard reads them).
    expect((await service.call('GET', `/boards/${board.id}`)).json()).toEqual({
      ...board,
      widgets: [],
      widget_background: '',
    });
  });

  it('keeps the settings given and lists every board', async () => {
    const channel = newId('ch');
    await service.db.kysely
      .insertInto('channels')
      .values({
        id: channel,
        type: 'virtualized',
        name: 'Berlin',
        tag: `berlin-${channel}`,
        parent_channel_id: 'ch_default',
      })
      .execute();
    const board = await createBoard({
      name: 'Wide',
      theme: 'light',
      columns: 48,
      rows: 27,
      size: [3840, 2160],
      font_size: 'large',
      background_color: '#102030',
      channel_ids: [channel, 'ch_default'],
    });
    expect(board).toMatchObject({ theme: 'light', columns: 48, channel_ids: [channel, 'ch_default'] });
    const list = await service.call('GET', '/boards');
    expect(list.statusCode).toBe(200);
    const boards = (list.json() as unknown[]).map((b) => boardSchema.parse(b));
    expect(boards.map((b) => b.id)).toContain(board.id);
    const stored = await service.db.kysely
      .selectFrom('boards')
      .select(['name', 'settings'])
      .where('id', '=', board.id)
      .executeTakeFirstOrThrow();
    expect(stored.name).toBe('Wide');
    expect(fromJson(stored.settings)).toMatchObject({ columns: 48, theme: 'light' });
    expect(fromJson(stored.settings)).not.toHaveProperty('name');
  });

  it('refuses unknown fields, bad values and unknown channels, naming the field', async () => {
    const unknown = await service.call('POST', '/boards', { name: 'X', colour: 'red' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.details[0].path).toMatch(/^body/);
    expect(JSON.stringify(unknown.json().error)).toContain('colour');

    const missing = await service.call('POST', '/boards', { theme: 'dark' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details.map((d: { path: string }) => d.path)).toContain('body.name');

    const bad = await service.call('POST', '/boards', { name: 'X', widget_margins: -1, columns: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.map((d: { path: string }) => d.path)).toEqual(
      expect.arrayContaining(['body.widget_margins', 'body.columns']),
    );

    const channel = await service.call('POST', '/boards', { name: 'X', channel_ids: ['ch_nowhere'] });
    expect(channel.statusCode).toBe(400);
    expect(channel.json().error.details).toEqual([
      { path: 'body.channel_ids', message: expect.stringContaining('ch_nowhere') },
    ]);
  });

  it('answers 404 to an unknown board', async () => {
    for (const [method, url] of [
      ['GET', '/boards/board_nope'],
      ['GET', '/boards/board_nope/export'],
      ['PATCH', '/boards/board_nope'],
      ['DELETE', '/boards/board_nope'],
    ] as const) {
      const response = await service.call(method, url, method === 'PATCH' ? { name: 'Y' } : undefined);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json().error.code).toBe('not_found');
    }
  });
});

describe('updating boards', () => {
  it('changes only the fields given, publishing board.changed', async () => {
    const board = await createBoard();
    const response = await service.call('PATCH', `/boards/${board.id}`, {
      name: 'Renamed',
      widget_padding: 12,
      widget_color: null,
    });
    expect(response.statusCode).toBe(200);
    const updated = boardSchema.parse(response.json());
    expect(updated).toEqual({
      ...board,
      name: 'Renamed',
      widget_padding: 12,
      updated_at: updated.updated_at,
    });
    expect((await service.call('GET', `/boards/${board.id}`)).json()).toEqual({
      ...updated,
      widgets: [],
      widget_background: updated.widget_color ?? '',
    });
    const events = await eventsOf('board.changed');
    expect(events).toContainEqual({
      type: 'board.changed',
      payload: { board_id: board.id },
      rooms: [`board:${board.id}`],
    });
  });

  it('refuses unknown fields and unknown channels', async () => {
    const board = await createBoard();
    const unknown = await service.call('PATCH', `/boards/${board.id}`, { id: 'board_other' });
    expect(unknown.statusCode).toBe(400);
    const channel = await service.call('PATCH', `/boards/${board.id}`, { channel_ids: ['ch_nowhere'] });
    expect(channel.statusCode).toBe(400);
    expect(channel.json().error.details[0].path).toBe('body.channel_ids');
  });

  it('refuses a smaller grid that would leave a widget off it, naming the widget', async () => {
    const board = await createBoard();
    await insertFlow('grid-cpu', 'value');
    const widget = await addWidget(board.id, {
      flow_tag: 'grid-cpu',
      column: 24,
      row: 12,
      width: 8,
      height: 8,
    });
    const narrower = await service.call('PATCH', `/boards/${board.id}`, { columns: 30 });
    expect(narrower.statusCode).toBe(400);
    expect(narrower.json().error.message).toContain(widget.id);
    expect(narrower.json().error.details).toEqual([
      { path: 'body.columns', message: expect.stringContaining(widget.id) },
    ]);
    const shorter = await service.call('PATCH', `/boards/${board.id}`, { rows: 19 });
    expect(shorter.statusCode).toBe(400);
    expect(shorter.json().error.details[0].path).toBe('body.rows');
    expect((await service.call('GET', `/boards/${board.id}`)).json()).toMatchObject({
      columns: 32,
      rows: 20,
    });
    const exact = await service.call('PATCH', `/boards/${board.id}`, {
      columns: 32,
      rows: 20,
      size: [1280, 720],
    });
    expect(exact.statusCode).toBe(200);
  });
});

describe('exporting boards', () => {
  it("gives the board's settings and widgets with their flows, in the export shape", async () => {
    const board = await createBoard({ name: 'Exported', widget_color: '#222' });
    await insertFlow('exp-cpu', 'value', { value: 42 }, true);
    await insertFlow('exp-text', 'text');
    await addWidget(board.id, { flow_tag: 'exp-cpu', column: 0, row: 0, width: 4, height: 4 });
    await addWidget(board.id, {
      flow_tag: 'exp-text',
      column: 4,
      row: 0,
      width: 8,
      height: 4,
      background: 'none',
    });
    const response = await service.call('GET', `/boards/${board.id}/export`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(boardExportSchema.parse(body)).toEqual(body);
    expect(body).not.toHaveProperty('id');
    expect(body).toMatchObject({ name: 'Exported', widget_color: '#222', channel_ids: ['ch_default'] });
    expect(body.widgets).toEqual([
      {
        flow: { tag: 'exp-cpu', data: { value: 42 }, errored: true },
        variant: 'value',
        column: 0,
        row: 0,
        width: 4,
        height: 4,
        in_board_index: 0,
        background: 'default',
        code: null,
      },
      {
        flow: { tag: 'exp-text', data: {}, errored: false },
        variant: 'text',
        column: 4,
        row: 0,
        width: 8,
        height: 4,
        in_board_index: 1,
        background: 'none',
        code: null,
      },
    ]);
  });
});

describe('deleting boards', () => {
  it('deletes the board with its widgets and takes it out of every playlist', async () => {
    const board = await createBoard({ name: 'Doomed' });
    const other = await createBoard({ name: 'Kept' });
    await insertFlow('del-cpu', 'value');
    await addWidget(board.id, { flow_tag: 'del-cpu', column: 0, row: 0, width: 4, height: 4 });
    const playing = newId('pl');
    const untouched = newId('pl');
    const items = [
      { type: 'board', board_id: board.id, channel_id: null, duration: 30 },
      { type: 'image', url: 'https://example.com/a.png', fit: 'fit', duration: 10 },
      { type: 'board', board_id: other.id, channel_id: null, duration: 20 },
      { type: 'board', board_id: board.id, channel_id: 'ch_default', duration: 5 },
    ];
    await service.db.kysely
      .insertInto('playlists')
      .values([
        { id: playing, name: 'Lobby', items: toJson(items) },
        { id: untouched, name: 'Other', items: toJson([items[2]]) },
      ])
      .execute();

    const response = await service.call('DELETE', `/boards/${board.id}`);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await service.call('GET', `/boards/${board.id}`)).statusCode).toBe(404);
    expect(
      await service.db.kysely.selectFrom('widgets').select('id').where('board_id', '=', board.id).execute(),
    ).toEqual([]);
    const playlists = await service.db.kysely
      .selectFrom('playlists')
      .select(['id', 'items'])
      .where('id', 'in', [playing, untouched])
      .orderBy('name')
      .execute();
    expect(playlists.map((row) => ({ id: row.id, items: fromJson(row.items) }))).toEqual([
      { id: playing, items: [items[1], items[2]] },
      { id: untouched, items: [items[2]] },
    ]);
    const playlistEvents = await eventsOf('playlist.changed');
    expect(playlistEvents).toContainEqual({
      type: 'playlist.changed',
      payload: { playlist_id: playing },
      rooms: [`playlist:${playing}`],
    });
    expect(playlistEvents.map((e) => e.payload.playlist_id)).not.toContain(untouched);
    expect(await eventsOf('board.changed')).toContainEqual({
      type: 'board.changed',
      payload: { board_id: board.id },
      rooms: [`board:${board.id}`],
    });
    expect((await service.call('DELETE', `/boards/${board.id}`)).statusCode).toBe(404);
  });
});

describe('permissions', () => {
  it('lets a readonly token read boards but not change them', async () => {
    const board = await createBoard();
    const readonly = await service.tokenOf('readonly');
    expect((await service.call('GET', '/boards', undefined, readonly)).statusCode).toBe(200);
    expect((await service.call('GET', `/boards/${board.id}`, undefined, readonly)).statusCode).toBe(200);
    expect((await service.call('GET', `/boards/${board.id}/export`, undefined, readonly)).statusCode).toBe(
      200,
    );
    expect((await service.call('POST', '/boards', { name: 'No' }, readonly)).statusCode).toBe(403);
    expect((await service.call('PATCH', `/boards/${board.id}`, { name: 'No' }, readonly)).statusCode).toBe(
      403,
    );
    expect((await service.call('DELETE', `/boards/${board.id}`, undefined, readonly)).statusCode).toBe(403);
    expect((await service.call('POST', '/boards/import', { name: 'No' }, readonly)).statusCode).toBe(403);
  });

  it('lets an affiliated token read boards but not create, change or delete them', async () => {
    const board = await createBoard();
    const affiliated = await service.tokenOf('affiliated');
    expect((await service.call('GET', '/boards', undefined, affiliated)).statusCode).toBe(200);
    expect((await service.call('GET', `/boards/${board.id}`, undefined, affiliated)).statusCode).toBe(200);
    expect((await service.call('POST', '/boards', { name: 'No' }, affiliated)).statusCode).toBe(403);
    expect((await service.call('PATCH', `/boards/${board.id}`, { name: 'No' }, affiliated)).statusCode).toBe(
      403,
    );
    expect((await service.call('DELETE', `/boards/${board.id}`, undefined, affiliated)).statusCode).toBe(403);
    expect((await service.call('GET', `/boards/${board.id}`)).statusCode).toBe(200);
  });

  it('refuses a request without a token', async () => {
    expect((await service.call('GET', '/boards', undefined, null)).statusCode).toBe(401);
  });

  it('describes the board routes in the OpenAPI document', async () => {
    const openapi = (await service.call('GET', '/openapi.json', undefined, null)).json();
    expect(Object.keys(openapi.paths)).toEqual(
      expect.arrayContaining(['/boards', '/boards/{id}', '/boards/{id}/export', '/boards/import']),
    );
  });
});
