import { Profiler } from 'react';
import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { boardCreateSchema } from '../../../src/shared/board';
import type { BoardExport } from '../../../src/shared/board-export';
import { FlowStore } from '../store/flow-store';
import { BoardView } from './board-view';

const widget = (tag: string, column: number): BoardExport['widgets'][number] => ({
  flow: { tag, data: { title: tag, value: 1 }, errored: false },
  variant: 'value',
  column,
  row: 0,
  width: 4,
  height: 2,
  in_board_index: column,
  background: 'default',
});

const board: BoardExport = {
  ...boardCreateSchema.parse({ name: 'Renders', columns: 8, rows: 2 }),
  widgets: [widget('cpu', 0), widget('mem', 4)],
};

describe('board view', () => {
  it('draws a widget again only when its data changed', async () => {
    const store = new FlowStore();
    store.load({ boards: { b: board } });
    let commits = 0;
    const screen = await render(
      <Profiler id="board" onRender={() => (commits += 1)}>
        <BoardView board={board} store={store} media={{}} onProblem={() => undefined} />
      </Profiler>,
    );
    await expect.element(screen.getByRole('region', { name: 'cpu' })).toHaveTextContent('1');
    const afterMount = commits;

    // The same values again, as new objects: what a sensor repeating itself sends.
    store.set('cpu', { title: 'cpu', value: 1 });
    store.set('mem', structuredClone(board.widgets[1]!.flow.data));
    store.load({ boards: { b: structuredClone(board) } });
    // React draws what a store tells it in a task of its own: let that pass.
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(commits).toBe(afterMount);

    store.set('cpu', { title: 'cpu', value: 2 });
    await expect.element(screen.getByRole('region', { name: 'cpu' })).toHaveTextContent('2');
    expect(commits).toBe(afterMount + 1);
  });
});
