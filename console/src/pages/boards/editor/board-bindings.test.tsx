import { useQuery } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { renderHook } from 'vitest-browser-react';
import { BOARD_DEFAULTS, boardSchema } from '../../../../../src/shared/board';
import type { BoardContent } from '../../../../../src/shared/board-content';
import type { DataBinding } from '../../../../../src/shared/data-source';
import { queryClient, serve } from '../../../testing/hook-kit';
import { contentQuery } from '../queries';
import type { BindingEdit } from './binding-edits';
import { useBoardEditor } from './use-board-editor';

const CONTENT_PATH = '/boards/board/content';

const loaded: BoardContent = {
  board: boardSchema.parse({
    ...BOARD_DEFAULTS,
    name: 'Hall',
    id: 'board',
    created_at: '2026-11-27T08:00:00.000Z',
    updated_at: '2026-11-27T09:00:00.000Z',
  }),
  widgets: [
    {
      id: 'w1',
      code: null,
      board_id: 'board',
      flow_id: 'f1',
      variant: 'value',
      column: 0,
      row: 0,
      width: 8,
      height: 7,
      in_board_index: 0,
      background: 'default',
    },
  ],
};

const saved: DataBinding = {
  id: 'b1',
  source_id: 's1',
  flow_id: 'f1',
  flow_tag: 'hall',
  query: 'up',
  range: null,
  mapping: { value: '[0].value' },
  created_at: '2026-11-27T08:00:00.000Z',
  last_run_at: null,
  last_ok_at: null,
  last_error: null,
};

const bound = (to: BindingEdit['to'], from: DataBinding | null = null): BindingEdit => ({
  flowId: 'f1',
  tag: 'hall',
  from,
  to,
});

const savedBoard = {
  status: 200,
  body: { ...loaded, board: { ...loaded.board, updated_at: '2026-11-27T09:10:00.000Z' } },
};

async function editing() {
  const { wrapper } = queryClient();
  return renderHook(
    () =>
      useBoardEditor(useQuery({ ...contentQuery('board'), initialData: loaded, staleTime: Infinity }).data),
    { wrapper },
  );
}

const writes = (service: ReturnType<typeof serve>) =>
  service.sent
    .filter((sent) => sent.method !== 'GET')
    .map(({ method, path, body }) => ({ method, path, body }));

describe('a widget’s data source in the board’s one Save', () => {
  it('is written after the board, and nothing is left to save', async () => {
    const service = serve()
      .on('PUT', CONTENT_PATH, savedBoard)
      .on('POST', '/data-bindings', { status: 201, body: saved });
    const { result, act } = await editing();
    await act(() =>
      result.current.editBinding(
        bound({ source_id: 's1', query: 'up', range: null, mapping: { value: '[0].value', title: '' } }),
      ),
    );
    expect(result.current.dirty).toBe(true);
    expect(writes(service)).toEqual([]);

    await act(() => result.current.save());
    await vi.waitFor(() => expect(result.current.dirty).toBe(false));
    expect(writes(service).map((sent) => `${sent.method} ${sent.path}`)).toEqual([
      `PUT ${CONTENT_PATH}`,
      'POST /data-bindings',
    ]);
    expect(writes(service)[1]?.body).toEqual({
      source_id: 's1',
      flow: 'hall',
      query: 'up',
      range: null,
      mapping: { value: '[0].value' },
    });
  });

  it('blocks the Save while it maps no field, and is dropped by Discard the changes', async () => {
    const service = serve();
    const { result, act } = await editing();
    await act(() =>
      result.current.editBinding(bound({ source_id: 's1', query: '', range: null, mapping: {} })),
    );
    expect(result.current.dataInvalid).toBe(true);
    await act(() => result.current.discard());
    expect(result.current.dirty).toBe(false);
    expect(result.current.bindings.size).toBe(0);
    expect(writes(service)).toEqual([]);
  });

  it('stays in the draft, named, when the service refuses it after the board was saved', async () => {
    serve()
      .on('PUT', CONTENT_PATH, savedBoard)
      .on('DELETE', '/data-bindings/b1', {
        status: 403,
        body: { error: { code: 'forbidden', message: 'not allowed', details: [] } },
      });
    const { result, act } = await editing();
    await act(() => result.current.editBinding(bound(null, saved)));
    await act(() => result.current.save());
    await vi.waitFor(() => expect(result.current.saving).toBe(false));
    expect(String(result.current.saveError)).toMatch(/data source of hall \(not allowed\)/);
    expect(result.current.bindings.get('f1')?.to).toBeNull();
    expect(result.current.dirty).toBe(true);
  });
});
