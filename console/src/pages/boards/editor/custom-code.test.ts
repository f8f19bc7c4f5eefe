import { describe, expect, it } from 'vitest';
import { BOARD_DEFAULTS, boardSchema } from '../../../../../src/shared/board';
import { boardContentSaveSchema, type BoardContent } from '../../../../../src/shared/board-content';
import { customCodeSchema } from '../../../../../src/shared/web-content';
import type { Widget } from '../../../../../src/shared/widget';
import { CUSTOM_STARTER, starterCode } from './custom-starter';
import { layoutOf, saveOf, type DraftWidget } from './draft';

const CODE = { html: '<p id="v"></p>', css: 'p { margin: 0; }', script: 'wallboard.onData(() => {});' };

const widget = (id: string, variant: Widget['variant'], code: Widget['code']): Widget => ({
  id,
  board_id: 'board',
  flow_id: `flow-${id}`,
  variant,
  column: 0,
  row: 0,
  width: 8,
  height: 7,
  in_board_index: 0,
  background: 'default',
  code,
});

describe("a custom widget's code in the board editor", () => {
  const base: BoardContent = {
    board: boardSchema.parse({
      ...BOARD_DEFAULTS,
      name: 'Hall',
      id: 'board',
      created_at: '2026-11-23T08:00:00.000Z',
      updated_at: '2026-11-23T09:00:00.000Z',
    }),
    widgets: [widget('w1', 'custom', CODE), widget('w2', 'value', null)],
  };

  it('is loaded into the draft and saved with the board, edited or not', () => {
    const [custom, value] = layoutOf(base.widgets) as [DraftWidget, DraftWidget];
    expect(custom.code).toEqual(CODE);
    const edited = { ...custom, code: { ...CODE, script: 'wallboard.onData(console.warn);' } };
    const save = saveOf(base, null, [edited, value]);
    expect(save.widgets.map((w) => w.code)).toEqual([edited.code, null]);
    expect(boardContentSaveSchema.safeParse(save).success).toBe(true);
  });

  it('starts from an example that draws the data’s value and title, for custom widgets only', () => {
    expect(starterCode('custom')).toBe(CUSTOM_STARTER);
    expect(starterCode('value')).toBeNull();
    expect(customCodeSchema.parse(CUSTOM_STARTER)).toEqual(CUSTOM_STARTER);
    expect(CUSTOM_STARTER.script).toContain('wallboard.onData');
    expect(CUSTOM_STARTER.script).toContain('data.value');
    expect(CUSTOM_STARTER.script).toContain('data.title');
  });
});
