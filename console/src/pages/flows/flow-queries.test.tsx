import { describe, expect, it, vi } from 'vitest';
import { renderHook } from 'vitest-browser-react';
import { BOARD_DEFAULTS } from '../../../../src/shared/board';
import { queryClient, serve } from '../../testing/hook-kit';
import { useBoardsByFlow } from './flow-queries';

const board = (id: string, name: string) => ({
  ...BOARD_DEFAULTS,
  id,
  name,
  created_at: '2026-11-23T08:00:00.000Z',
  updated_at: '2026-11-23T09:00:00.000Z',
});

const widgetsOf = (board_id: string, flows: string[]) =>
  flows.map((flow_id, index) => ({
    id: `${board_id}-${index}`,
    board_id,
    flow_id,
    variant: 'value',
    column: index * 4,
    row: 0,
    width: 4,
    height: 3,
    in_board_index: index,
    background: 'default',
    code: null,
  }));

describe('the boards that show each flow', () => {
  it("names every board once per flow, from each board's widgets, and again after a `boards` notice", async () => {
    const fake = serve()
      .on('GET', '/boards', { status: 200, body: [board('b1', 'Hall'), board('b2', 'Lobby')] })
      .on('GET', '/boards/b1/widgets', { status: 200, body: widgetsOf('b1', ['f1', 'f1', 'f2']) })
      .on('GET', '/boards/b2/widgets', { status: 200, body: widgetsOf('b2', ['f1']) });
    const { queries, wrapper } = queryClient();
    const { result } = await renderHook(() => useBoardsByFlow(), { wrapper });
    await vi.waitFor(() =>
      expect([...result.current]).toEqual([
        ['f1', ['Hall', 'Lobby']],
        ['f2', ['Hall']],
      ]),
    );

    fake
      .on('GET', '/boards', { status: 200, body: [board('b1', 'Hall'), board('b3', 'Canteen')] })
      .on('GET', '/boards/b3/widgets', { status: 200, body: widgetsOf('b3', ['f2']) });
    await queries.invalidateQueries({ queryKey: ['boards'] });
    await vi.waitFor(() =>
      expect([...result.current]).toEqual([
        ['f1', ['Hall']],
        ['f2', ['Hall', 'Canteen']],
      ]),
    );
  });

  it('leaves out a board whose widgets cannot be read, and still names the others', async () => {
    serve()
      .on('GET', '/boards', { status: 200, body: [board('b1', 'Hall'), board('b2', 'Lobby')] })
      .on('GET', '/boards/b2/widgets', { status: 200, body: widgetsOf('b2', ['f1']) });
    const { wrapper } = queryClient();
    const { result } = await renderHook(() => useBoardsByFlow(), { wrapper });
    await vi.waitFor(() => expect([...result.current]).toEqual([['f1', ['Lobby']]]));
  });
});
