import { describe, expect, it } from 'vitest';
import { BOARD_DEFAULTS, boardSchema } from '../../../../../src/shared/board';
import type { BoardContent } from '../../../../../src/shared/board-content';
import type { Widget } from '../../../../../src/shared/widget';
import { afterSave, layoutOf, saveOf, type DraftWidget } from './draft';
import { historyOf, record, redo, undo } from './history';
import { freeSpot, newWidgetSize, nudge } from './placement';

const GRID = { columns: 32, rows: 20 };
const at = (column: number, row: number, width = 8, height = 7) => ({ column, row, width, height });

describe('the undo history', () => {
  it('undoes and redoes, and a change after an undo drops what could be redone', () => {
    let history = historyOf('a');
    history = record(history, 'b');
    history = record(history, 'c');
    history = undo(history);
    expect(history.present).toBe('b');
    history = redo(history);
    expect(history.present).toBe('c');
    history = record(undo(history), 'd');
    expect([history.present, history.future]).toEqual(['d', []]);
    expect(undo(undo(undo(history))).present).toBe('a');
    expect(redo(history)).toBe(history);
  });

  it('records nothing for the same state, and keeps at most 200 steps back', () => {
    const start = historyOf(0);
    expect(record(start, 0)).toBe(start);
    let history = start;
    for (let step = 1; step <= 250; step++) history = record(history, step);
    expect(history.past).toHaveLength(200);
    expect(history.past[0]).toBe(50);
  });
});

describe('placing widgets', () => {
  it('puts a new widget on the first free cells, row by row', () => {
    expect(freeSpot(GRID, [], newWidgetSize(GRID))).toEqual(at(0, 0));
    expect(freeSpot(GRID, [at(0, 0), at(8, 0)], at(0, 0))).toEqual(at(16, 0));
    expect(freeSpot(GRID, [at(0, 0, 32, 7)], at(0, 0))).toEqual(at(0, 7));
  });

  it('shrinks a new widget to fit a full board, and lays it over the others when nothing is free', () => {
    expect(freeSpot(GRID, [at(0, 0, 32, 16)], at(0, 0))).toEqual(at(0, 16, 4, 4));
    expect(freeSpot(GRID, [at(0, 0, 32, 20)], at(0, 0))).toEqual(at(0, 0, 1, 1));
  });

  it('moves and resizes by a cell, never off the board or over another widget', () => {
    expect(nudge(at(0, 0), 'right', false, GRID, [])).toEqual(at(1, 0));
    expect(nudge(at(0, 0), 'down', true, GRID, [])).toEqual(at(0, 0, 8, 8));
    expect(nudge(at(0, 0), 'left', false, GRID, [])).toBeNull();
    expect(nudge(at(0, 0, 1, 1), 'left', true, GRID, [])).toBeNull();
    expect(nudge(at(24, 0), 'right', false, GRID, [])).toBeNull();
    expect(nudge(at(0, 0), 'right', false, GRID, [at(8, 0)])).toBeNull();
    expect(nudge(at(0, 0), 'down', false, GRID, [at(8, 0)])).toEqual(at(0, 1));
  });
});

const widget = (id: string, column: number): Widget => ({
  id,
  code: null,
  board_id: 'board',
  flow_id: `flow-${id}`,
  variant: 'value',
  ...at(column, 0),
  in_board_index: column,
  background: 'default',
});

describe('saving a layout', () => {
  const base: BoardContent = {
    board: boardSchema.parse({
      ...BOARD_DEFAULTS,
      name: 'Hall',
      id: 'board',
      created_at: '2026-11-23T08:00:00.000Z',
      updated_at: '2026-11-23T09:00:00.000Z',
    }),
    widgets: [widget('w1', 0), widget('w2', 8)],
  };

  it('sends the settings as loaded with the edited ones over them, the widgets in drawing order', () => {
    const [first, second] = layoutOf(base.widgets) as [DraftWidget, DraftWidget];
    const added: DraftWidget = { ...first, key: 'new:1', id: undefined, column: 16 };
    const save = saveOf(base, { columns: 24 }, [second, first, added]);
    expect(save.updated_at).toBe(base.board.updated_at);
    expect(save.board).toMatchObject({ name: 'Hall', columns: 24, rows: 20 });
    expect(save.widgets.map((w) => [w.id, w.in_board_index])).toEqual([
      ['w2', 0],
      ['w1', 1],
      [undefined, 2],
    ]);
    expect(save.widgets[2]).not.toHaveProperty('key');
  });

  it('gives the widgets the save created their ids, and forgets the ids it deleted, in every step', () => {
    const [first, second] = layoutOf(base.widgets) as [DraftWidget, DraftWidget];
    const added: DraftWidget = { ...first, key: 'new:1', id: undefined, column: 16 };
    const sent = [first, added];
    const saved = [widget('w1', 0), widget('w3', 16)];
    expect(afterSave(sent, sent, saved).map((w) => [w.key, w.id])).toEqual([
      ['w1', 'w1'],
      ['new:1', 'w3'],
    ]);
    // A step before the save, undone to: w2 was deleted by the save, so it is new again.
    expect(afterSave([first, second], sent, saved).map((w) => [w.key, w.id])).toEqual([
      ['w1', 'w1'],
      ['w2', undefined],
    ]);
    expect(afterSave([first], sent, saved)[0]).toBe(first);
  });
});
