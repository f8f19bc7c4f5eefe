import { describe, expect, it } from 'vitest';
import { findIcon } from '../../../renderer/src/icons/icon';
import { boardExportSchema, boardImportSchema } from '../board-export';
import { parseMetrics } from '../metrics';
import { scriptIntervalSchema } from '../script';
import { BOARD_TEMPLATES, findTemplate } from './index';

/** Every icon name a widget's data gives, wherever it stands in the data. */
function iconsOf(data: unknown): string[] {
  if (Array.isArray(data)) return data.flatMap(iconsOf);
  if (!data || typeof data !== 'object') return [];
  return Object.entries(data).flatMap(([key, value]) =>
    (key === 'icon' || key === 'type') && typeof value === 'string' ? [value] : iconsOf(value),
  );
}

describe.each(BOARD_TEMPLATES.map((template) => [template.id, template] as const))(
  'the template %s',
  (_id, template) => {
    it('is a board the import takes, and an export', () => {
      expect(boardImportSchema.safeParse(template.board).error).toBeUndefined();
      expect(boardExportSchema.safeParse(template.board).error).toBeUndefined();
    });

    it('fills every widget with data that fits its variant, with icons the screens have', () => {
      for (const widget of template.board.widgets) {
        const parsed = parseMetrics(widget.variant, widget.flow.data);
        expect(parsed.error, `${widget.flow.tag}`).toBeUndefined();
        expect(Object.keys(widget.flow.data ?? {}).length).toBeGreaterThan(0);
        for (const icon of iconsOf(widget.flow.data)) expect(findIcon(icon), icon).toBeDefined();
      }
    });

    it('lays its widgets on the grid without overlapping, filling most of it', () => {
      const cells = new Set<string>();
      for (const widget of template.board.widgets) {
        for (let column = widget.column; column < widget.column + widget.width; column += 1) {
          for (let row = widget.row; row < widget.row + widget.height; row += 1) {
            const cell = `${column},${row}`;
            expect(cells.has(cell), `${widget.flow.tag} overlaps at ${cell}`).toBe(false);
            cells.add(cell);
          }
        }
      }
      expect(cells.size).toBeGreaterThan(0.9 * 32 * 20);
    });

    it('gives each widget a flow of its own and a script that feeds one of them', () => {
      const tags = template.board.widgets.map((widget) => widget.flow.tag);
      expect(new Set(tags).size).toBe(tags.length);
      expect(tags).toContain(template.script.feeds);
      expect(scriptIntervalSchema.safeParse(template.script.interval).success).toBe(true);
    });
  },
);

it('finds a template by its id', () => {
  expect(findTemplate('kpi-wall')?.name).toBe('KPI wall');
  expect(findTemplate('nothing')).toBeUndefined();
});
