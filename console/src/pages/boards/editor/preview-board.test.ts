import { describe, expect, it } from 'vitest';
import { BOARD_DEFAULTS, boardSchema } from '../../../../../src/shared/board';
import type { MetricsData } from '../../../../../src/shared/metrics';
import { suggestTag } from './add-widget';
import { previewOf } from './preview-board';
import { draftWidget as draft, sampleFlow as flow } from '../../../testing/fixtures';

const board = boardSchema.parse({
  ...BOARD_DEFAULTS,
  id: 'board',
  name: 'Lobby',
  columns: 24,
  created_at: '2026-11-23T08:00:00.000Z',
  updated_at: '2026-11-23T09:00:00.000Z',
});

describe("the editor's preview of a board", () => {
  const flows = new Map([
    ['f1', flow('f1', 'sales')],
    ['f2', flow('f2', 'stock', true)],
  ]);
  const data = new Map<string, MetricsData>([['sales', { value: 42 } as MetricsData]]);

  it("draws the editor's settings, without the board's id and times", () => {
    const preview = previewOf({ ...board, columns: 12 }, [], flows, data);
    expect(preview).toMatchObject({ name: 'Lobby', columns: 12, rows: 20, widgets: [] });
    expect(preview).not.toHaveProperty('id');
    expect(preview).not.toHaveProperty('updated_at');
  });

  it("draws the layout's widgets in its order, each with its flow's data and state", () => {
    const preview = previewOf(board, [draft('w2', 'f2', 4), draft('new:1', 'f1', 0)], flows, data);
    expect(preview.widgets.map((widget) => [widget.in_board_index, widget.column, widget.flow])).toEqual([
      [0, 4, { tag: 'stock', data: {}, errored: true }],
      [1, 0, { tag: 'sales', data: { value: 42 }, errored: false }],
    ]);
    expect(preview.widgets[0]).not.toHaveProperty('key');
  });

  it('draws a widget whose flow is not known yet as empty, not errored', () => {
    const [widget] = previewOf(board, [draft('w1', 'gone', 0)], flows, data).widgets;
    expect(widget?.flow).toEqual({ tag: 'gone', data: {}, errored: false });
  });
});

describe("a new widget's flow tag", () => {
  const taken = [flow('f1', 'lobby-value'), flow('f2', 'lobby-value-2')];

  it("is the board's name and the variant, in a tag's letters", () => {
    expect(suggestTag('Lobby', 'gauge', taken)).toBe('lobby-gauge');
    expect(suggestTag('  Front Desk / 2nd floor', 'value', [])).toBe('front-desk-2nd-floor-value');
    expect(suggestTag('Café 3', 'clock', [])).toBe('caf-3-clock');
  });

  it('is numbered past the tags other flows have', () => {
    expect(suggestTag('Lobby', 'value', taken)).toBe('lobby-value-3');
    expect(suggestTag('lobby', 'value', taken.slice(0, 1))).toBe('lobby-value-2');
  });

  it("is a tag the service accepts, however long the board's name", () => {
    const tag = suggestTag('x'.repeat(200), 'value', []);
    expect(tag).toHaveLength(90);
    expect(tag).toMatch(/^[a-z0-9][a-z0-9_.-]*$/);
  });
});
