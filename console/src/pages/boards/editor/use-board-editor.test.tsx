import { useQuery, type QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { renderHook } from 'vitest-browser-react';
import { BOARD_DEFAULTS, boardSchema } from '../../../../../src/shared/board';
import type { BoardContent, BoardContentSave } from '../../../../../src/shared/board-content';
import type { Widget } from '../../../../../src/shared/widget';
import { held, queryClient, serve, type FakeService } from '../../../testing/hook-kit';
import { contentQuery } from '../queries';
import type { DraftWidget } from './draft';
import { useBoardEditor } from './use-board-editor';

const CONTENT_PATH = '/boards/board/content';

const widget = (id: string, column: number): Widget => ({
  id,
  code: null,
  board_id: 'board',
  flow_id: `flow-${id}`,
  variant: 'value',
  column,
  row: 0,
  width: 8,
  height: 7,
  in_board_index: column,
  background: 'default',
});

const content = (
  updated_at: string,
  widgets: Widget[],
  columns: number = BOARD_DEFAULTS.columns,
): BoardContent => ({
  board: boardSchema.parse({
    ...BOARD_DEFAULTS,
    columns,
    name: 'Hall',
    id: 'board',
    created_at: '2026-11-23T08:00:00.000Z',
    updated_at,
  }),
  widgets,
});

const loaded = content('2026-11-23T09:00:00.000Z', [widget('w1', 0), widget('w2', 8)]);
const theirs = content('2026-11-23T09:05:00.000Z', [widget('w2', 16)]);

/** The board as the service saves what it was sent: ids for new widgets, a newer version. */
function savedAs(body: BoardContentSave, updated_at: string): BoardContent {
  const widgets = body.widgets.map((sent, index) => widget(sent.id ?? `made-${index}`, sent.column));
  return content(updated_at, widgets, body.board.columns);
}

/**
 * The editor as the board's page holds it: fed by the board's content query, which a save
 * updates and a `boards` notice refetches.
 */
async function editing() {
  const { queries, wrapper } = queryClient();
  const hook = await renderHook(
    () =>
      useBoardEditor(useQuery({ ...contentQuery('board'), initialData: loaded, staleTime: Infinity }).data),
    { wrapper },
  );
  return { queries, ...hook };
}

/** Someone else saved the board: the notice's refetch reads `content`. */
async function savedElsewhere(queries: QueryClient, service: FakeService, newer: BoardContent) {
  service.on('GET', CONTENT_PATH, { status: 200, body: newer });
  await queries.invalidateQueries({ queryKey: ['boards'] });
}

const moved = (layout: readonly DraftWidget[], column: number): DraftWidget[] =>
  layout.map((draft, index) => (index === 0 ? { ...draft, column } : draft));

describe('the board editor', () => {
  it('saves the layout and settings in one PUT against the loaded version; the answer becomes the base', async () => {
    const service = serve().on('PUT', CONTENT_PATH, ({ body }) => ({
      status: 200,
      body: savedAs(body as BoardContentSave, '2026-11-23T09:10:00.000Z'),
    }));
    const { result, act, queries } = await editing();
    const added: DraftWidget = { ...result.current.layout[0]!, key: 'new:a', id: undefined, column: 24 };
    await act(() => {
      result.current.change([...result.current.layout, added]);
      result.current.onSettings({ columns: 40 }, false);
    });
    expect(result.current.dirty).toBe(true);

    await act(() => result.current.save());
    await vi.waitFor(() => expect(result.current.base.board.updated_at).toBe('2026-11-23T09:10:00.000Z'));
    const sent = service.sent[0]?.body as BoardContentSave;
    expect(sent.updated_at).toBe(loaded.board.updated_at);
    expect(sent.board.columns).toBe(40);
    expect(sent.widgets.map((draft) => [draft.id, draft.column, draft.in_board_index])).toEqual([
      ['w1', 0, 0],
      ['w2', 8, 1],
      [undefined, 24, 2],
    ]);
    // The new widget now carries the id the service gave it, so a second save does not create it again.
    expect(result.current.layout[2]?.id).toBe('made-2');
    expect(queries.getQueryData(['boards', 'board'])).toEqual(result.current.base);
  });

  it('saves the widgets’ data and a new widget’s flow with the board, in the one PUT', async () => {
    const service = serve().on('PUT', CONTENT_PATH, ({ body }) => {
      const saved = savedAs(body as BoardContentSave, '2026-11-23T09:10:00.000Z');
      // The service made the new widget's flow.
      saved.widgets = saved.widgets.map((made, index) =>
        index === 2 ? { ...made, flow_id: 'flow-made' } : made,
      );
      return { status: 200, body: saved };
    });
    const { result, act } = await editing();
    const added: DraftWidget = {
      ...result.current.layout[0]!,
      key: 'new:b',
      id: undefined,
      flow_id: '',
      new_flow: 'hall-tickertape',
      variant: 'tickertape',
      column: 24,
    };
    await act(() => {
      result.current.change([...result.current.layout, added]);
      result.current.editData(
        'new:hall-tickertape',
        { tag: 'hall-tickertape', variant: 'tickertape', text: '{"messages":["Hi"]}' },
        '{}',
      );
      result.current.editData(
        'flow-w1',
        { tag: 'hall-value', variant: 'value', text: '{"value":"42 open"}' },
        '{"value":1}',
      );
    });
    expect(result.current.dirty).toBe(true);
    expect(result.current.dataInvalid).toBe(false);

    await act(() => result.current.save());
    await vi.waitFor(() => expect(result.current.dirty).toBe(false));
    const sent = service.sent[0]?.body as BoardContentSave;
    expect(sent.flows).toEqual([
      { tag: 'hall-tickertape', variant: 'tickertape', data: { messages: ['Hi'] } },
    ]);
    expect(sent.data).toEqual([{ tag: 'hall-value', data: { value: '42 open' } }]);
    expect(sent.widgets[2]).toMatchObject({ flow_tag: 'hall-tickertape' });
    expect(sent.widgets[2]).not.toHaveProperty('flow_id');
    // The new widget shows the flow the save made; nothing is left to save.
    expect(result.current.layout[2]).toMatchObject({ flow_id: 'flow-made' });
    expect(result.current.layout[2]).not.toHaveProperty('new_flow');
    expect(result.current.edits.size).toBe(0);
  });

  it('refuses to save data that does not fit its widget', async () => {
    serve();
    const { result, act } = await editing();
    await act(() =>
      result.current.editData(
        'flow-w1',
        { tag: 'hall-value', variant: 'value', text: '{"value":[1]}' },
        '{}',
      ),
    );
    expect(result.current.dataInvalid).toBe(true);
    // Data of a widget taken off the board is neither saved nor in the way.
    await act(() => result.current.change(result.current.layout.slice(1)));
    expect(result.current.dataInvalid).toBe(false);
  });

  it('leaves nothing to save after a layout-only save, and keeps edits made while it was under way', async () => {
    const answer = held();
    serve().on('PUT', CONTENT_PATH, answer.handler);
    const { result, act } = await editing();
    const first = moved(result.current.layout, 2);
    await act(() => result.current.change(first));
    await act(() => result.current.save());
    expect(result.current.saving).toBe(true);

    await act(() => result.current.change(moved(result.current.layout, 4)));
    answer.release({
      status: 200,
      body: content('2026-11-23T09:10:00.000Z', [widget('w1', 2), widget('w2', 8)]),
    });
    await vi.waitFor(() => expect(result.current.saving).toBe(false));
    expect(result.current.layout[0]?.column).toBe(4);
    expect(result.current.dirty).toBe(true);

    await act(() => result.current.undo());
    expect(result.current.layout[0]?.column).toBe(2);
    expect(result.current.dirty).toBe(false);
  });

  it('on a conflict (409) keeps the edits until the operator loads the newer board', async () => {
    const service = serve()
      .on('PUT', CONTENT_PATH, {
        status: 409,
        body: { error: { code: 'conflict', message: 'the board changed since it was read', details: [] } },
      })
      .on('GET', CONTENT_PATH, { status: 200, body: theirs });
    const { result, act } = await editing();
    await act(() => result.current.change(moved(result.current.layout, 4)));
    await act(() => result.current.onSettings({ columns: 40 }, false));
    await act(() => result.current.save());
    await vi.waitFor(() => expect(result.current.conflict).toBe(true));
    expect(result.current.saveError).toMatchObject({ message: 'the board changed since it was read' });
    expect(result.current.layout[0]?.column).toBe(4);
    expect(result.current.dirty).toBe(true);
    const generation = result.current.generation;

    await act(() => result.current.loadTheirs());
    expect(service.count('GET', CONTENT_PATH)).toBe(1);
    expect(result.current.base).toEqual(theirs);
    expect(result.current.layout.map((draft) => [draft.id, draft.column])).toEqual([['w2', 16]]);
    expect(result.current.settings).toBeNull();
    expect(result.current.conflict).toBe(false);
    expect(result.current.dirty).toBe(false);
    expect(result.current.canUndo).toBe(false);
    // The settings form is made anew, filled from the newer board.
    expect(result.current.generation).toBe(generation + 1);
  });

  it('takes in a newer board at once while idle, and only says it is stale while edited', async () => {
    const service = serve();
    const { result, act, queries } = await editing();
    await act(() => savedElsewhere(queries, service, theirs));
    expect(result.current.stale).toBe(false);
    expect(result.current.base).toEqual(theirs);
    expect(result.current.layout.map((draft) => draft.id)).toEqual(['w2']);

    await act(() => result.current.change(moved(result.current.layout, 0)));
    await act(() => savedElsewhere(queries, service, content('2026-11-23T09:20:00.000Z', [widget('w9', 0)])));
    expect(result.current.stale).toBe(true);
    expect(result.current.base).toEqual(theirs);
    expect(result.current.layout.map((draft) => [draft.id, draft.column])).toEqual([['w2', 0]]);
  });

  it('holds a flow’s new script ("Fed by") in the draft, and writes it after the board', async () => {
    const service = serve()
      .on('PUT', CONTENT_PATH, ({ body }) => ({
        status: 200,
        body: savedAs(body as BoardContentSave, '2026-11-23T09:10:00.000Z'),
      }))
      .on('PATCH', '/scripts/old', { status: 200, body: {} })
      .on('PATCH', '/scripts/new', { status: 200, body: {} });
    const { result, act } = await editing();
    await act(() => result.current.editSource({ flowId: 'flow-w1', tag: 'hall', from: 'old', to: 'new' }));
    expect(result.current.dirty).toBe(true);
    expect(service.sent.filter((sent) => sent.method !== 'GET')).toEqual([]);

    await act(() => result.current.save());
    await vi.waitFor(() => expect(result.current.dirty).toBe(false));
    expect(
      service.sent
        .filter((sent) => sent.method !== 'GET')
        .map(({ method, path, body }) => [method, path, body]),
    ).toEqual([
      ['PUT', CONTENT_PATH, expect.anything()],
      ['PATCH', '/scripts/old', { flow_id: null }],
      ['PATCH', '/scripts/new', { flow_id: 'flow-w1' }],
    ]);
  });

  it('keeps a script it could not attach in the draft, named, and drops a choice taken back', async () => {
    serve()
      .on('PUT', CONTENT_PATH, ({ body }) => ({
        status: 200,
        body: savedAs(body as BoardContentSave, '2026-11-23T09:10:00.000Z'),
      }))
      .on('PATCH', '/scripts/gone', {
        status: 404,
        body: { error: { code: 'not_found', message: 'no such script', details: [] } },
      });
    const { result, act } = await editing();
    await act(() => result.current.editSource({ flowId: 'flow-w2', tag: 'queue', from: null, to: 'other' }));
    await act(() => result.current.editSource({ flowId: 'flow-w2', tag: 'queue', from: null, to: null }));
    expect(result.current.dirty).toBe(false);
    await act(() => result.current.editSource({ flowId: 'flow-w1', tag: 'hall', from: null, to: 'gone' }));
    await act(() => result.current.save());
    await vi.waitFor(() => expect(result.current.saveError).not.toBeNull());
    expect(result.current.saveError?.message).toContain('hall (no such script)');
    expect([...result.current.sources.keys()]).toEqual(['flow-w1']);
    expect(result.current.dirty).toBe(true);
  });

  it('discards every edit as one undoable step, settings and a failed save included', async () => {
    serve().on('PUT', CONTENT_PATH, {
      status: 400,
      body: { error: { code: 'invalid', message: 'columns: too many', details: [] } },
    });
    const { result, act } = await editing();
    await act(() => result.current.change(moved(result.current.layout, 4)));
    await act(() => result.current.onSettings(null, true));
    expect(result.current.settingsInvalid).toBe(true);
    await act(() => result.current.save());
    await vi.waitFor(() => expect(result.current.saveError).toMatchObject({ message: 'columns: too many' }));
    expect(result.current.conflict).toBe(false);

    await act(() => result.current.discard());
    expect(result.current.layout[0]?.column).toBe(0);
    expect(result.current.dirty).toBe(false);
    expect(result.current.settingsInvalid).toBe(false);
    expect(result.current.saveError).toBeNull();
    await act(() => result.current.undo());
    expect(result.current.layout[0]?.column).toBe(4);
  });
});
