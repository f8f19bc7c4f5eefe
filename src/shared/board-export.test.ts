import { describe, expect, it } from 'vitest';
import { BOARD_DEFAULTS } from './board';
import { boardExportSchema, boardImportSchema } from './board-export';
import { toFieldIssues } from './issues';
import { originalExport } from './testing/original-export';

const ORIGINAL_EXPORT = originalExport();

describe('board import', () => {
  it("accepts the original product's export, filling our defaults", () => {
    const board = boardImportSchema.parse(ORIGINAL_EXPORT);
    expect(board).toMatchObject({
      name: 'Crittercism',
      aspect_ratio: 'HDTV',
      widget_color: null,
      columns: 32,
    });
    expect(board.widgets[0]).toEqual({
      ...ORIGINAL_EXPORT.widgets[0],
      flow: { ...ORIGINAL_EXPORT.widgets[0]!.flow, errored: false },
      code: null,
    });
    expect(board).not.toHaveProperty('widget_background');
  });

  it('maps a widget_background color to widget_color', () => {
    expect(boardImportSchema.parse({ ...ORIGINAL_EXPORT, widget_background: '#222' }).widget_color).toBe(
      '#222',
    );
  });

  it('accepts widgets that name their flow by a bare tag, stacking them in order', () => {
    const board = boardImportSchema.parse({
      name: 'Legacy',
      widgets: [
        { variant: 'image', tag: 'image_1', column: 0, row: 0, width: 9, height: 6, background: 'none' },
        { variant: 'box', tag: 'box_1', column: 0, row: 6, width: 32, height: 8 },
      ],
    });
    expect(board.widgets.map((w) => [w.flow?.tag, w.in_board_index, w.background])).toEqual([
      ['image_1', 0, 'none'],
      ['box_1', 1, 'default'],
    ]);
    expect(board.widgets[0]?.flow?.data).toEqual({});
  });

  it('ignores unknown fields but refuses bad known ones, naming the widget', () => {
    expect(boardImportSchema.parse({ ...ORIGINAL_EXPORT, exported_by: 'x' })).not.toHaveProperty(
      'exported_by',
    );
    const result = boardImportSchema.safeParse({
      ...ORIGINAL_EXPORT,
      widgets: [{ ...ORIGINAL_EXPORT.widgets[0], variant: 'hologram' }],
    });
    expect(result.success).toBe(false);
    expect(toFieldIssues(result.error!).map((i) => i.path)).toContain('widgets.0');
  });

  it('refuses a widget outside the grid', () => {
    const result = boardImportSchema.safeParse({
      ...ORIGINAL_EXPORT,
      widgets: [{ ...ORIGINAL_EXPORT.widgets[0], column: 30 }],
    });
    expect(toFieldIssues(result.error!)).toEqual([
      { path: 'widgets.0', message: "column 30 + width 8 exceeds the board's 32 columns" },
    ]);
  });
});

describe('board export', () => {
  it('round-trips through import', () => {
    const exported = boardExportSchema.parse({
      ...BOARD_DEFAULTS,
      name: 'Round trip',
      widgets: [
        {
          flow: { tag: 'cpu', data: { value: 3 }, errored: true },
          variant: 'value',
          column: 0,
          row: 0,
          width: 4,
          height: 4,
          in_board_index: 0,
          background: 'default',
          code: null,
        },
      ],
    });
    expect(boardImportSchema.parse(exported)).toEqual(exported);
  });

  it("keeps a custom widget's code through import, and none when an export has none", () => {
    const code = { html: '<p></p>', css: '', script: 'wallboard.onData(() => {});' };
    const widget = {
      flow: { tag: 'mine', data: {}, errored: false },
      variant: 'custom' as const,
      column: 0,
      row: 0,
      width: 4,
      height: 4,
      in_board_index: 0,
      background: 'default' as const,
    };
    const parsed = boardImportSchema.parse({
      ...BOARD_DEFAULTS,
      name: 'Code',
      widgets: [{ ...widget, code }, widget],
    });
    expect(parsed.widgets.map((w) => w.code)).toEqual([code, null]);
  });
});
