import { describe, expect, it } from 'vitest';
import { placementProblem, widgetBackgroundSchema, widgetCreateSchema, widgetUpdateSchema } from './widget';

describe('widgets', () => {
  const place = { column: 0, row: 0, width: 8, height: 6 };

  it('creates on a flow given by id or by tag, with background default', () => {
    expect(widgetCreateSchema.parse({ flow_tag: 'cpu', ...place })).toEqual({
      flow_tag: 'cpu',
      ...place,
      background: 'default',
    });
    expect(widgetCreateSchema.safeParse({ flow_id: 'f1', ...place }).success).toBe(true);
  });

  it('needs exactly one of flow_id and flow_tag', () => {
    for (const input of [place, { flow_id: 'f1', flow_tag: 'cpu', ...place }]) {
      const result = widgetCreateSchema.safeParse(input);
      expect(result.error?.issues[0]?.message).toBe('give exactly one of flow_id and flow_tag');
    }
  });

  it('counts positions from 0 and sizes from 1', () => {
    expect(widgetCreateSchema.safeParse({ flow_id: 'f', ...place, column: -1 }).success).toBe(false);
    expect(widgetCreateSchema.safeParse({ flow_id: 'f', ...place, width: 0 }).success).toBe(false);
    expect(widgetUpdateSchema.parse({ column: 4 })).toEqual({ column: 4 });
  });

  it('takes "default", "none" or a color as background', () => {
    for (const good of ['default', 'none', '#09ab3f'])
      expect(widgetBackgroundSchema.safeParse(good).success).toBe(true);
    expect(widgetBackgroundSchema.safeParse('sometimes!').success).toBe(false);
  });

  it('tells when a widget leaves the grid', () => {
    const grid = { columns: 32, rows: 20 };
    expect(placementProblem({ column: 0, row: 0, width: 32, height: 20 }, grid)).toBeNull();
    expect(placementProblem({ column: 24, row: 0, width: 9, height: 1 }, grid)).toBe(
      "column 24 + width 9 exceeds the board's 32 columns",
    );
    expect(placementProblem({ column: 0, row: 19, width: 1, height: 2 }, grid)).toBe(
      "row 19 + height 2 exceeds the board's 20 rows",
    );
  });
});
