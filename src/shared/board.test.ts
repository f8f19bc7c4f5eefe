import { describe, expect, it } from 'vitest';
import { BOARD_DEFAULTS, boardCreateSchema, boardUpdateSchema } from './board';
import { toFieldIssues } from './issues';
import { THEMES } from './theme';

function firstIssue(result: ReturnType<typeof boardCreateSchema.safeParse>) {
  expect(result.success).toBe(false);
  return result.success ? undefined : toFieldIssues(result.error)[0];
}

describe('board creation', () => {
  it('fills every documented default', () => {
    const board = boardCreateSchema.parse({ name: 'Ops' });
    expect(board).toEqual({ name: 'Ops', ...BOARD_DEFAULTS });
    expect(board.widget_margins).toBe(3);
    expect(board.widget_padding).toBe(8);
    expect(board.font_family).toBe('normal');
    expect(board.font_size).toBe('normal');
  });

  it('does not share the default arrays between boards', () => {
    const a = boardCreateSchema.parse({ name: 'A' });
    a.channel_ids.push('x');
    a.size[0] = 1;
    expect(boardCreateSchema.parse({ name: 'B' })).toMatchObject({ channel_ids: [], size: [1920, 1080] });
  });

  it('accepts every field set', () => {
    const board = boardCreateSchema.parse({
      name: 'Sales',
      theme: 'light',
      columns: 12,
      rows: 8,
      size: [1080, 1920],
      aspect_ratio: 'HDTV',
      display_board_name: true,
      widget_margins: 0,
      widget_padding: 20,
      font_size: 'large',
      font_family: 'DejaVu Serif',
      background_color: '#102030',
      background_url: 'https://example.com/bg.png',
      widget_color: 'rgba(0, 0, 0, 0.5)',
      widget_title_color: 'white',
      widget_title_size: 'small',
      channel_ids: ['ch1'],
    });
    expect(board.size).toEqual([1080, 1920]);
  });

  it('takes font_size small, normal or large only', () => {
    for (const size of ['small', 'normal', 'large']) {
      expect(boardCreateSchema.parse({ name: 'b', font_size: size }).font_size).toBe(size);
    }
    expect(firstIssue(boardCreateSchema.safeParse({ name: 'b', font_size: 'huge' }))?.path).toBe('font_size');
  });

  it('takes every documented theme and refuses others by name', () => {
    for (const theme of Object.keys(THEMES)) {
      expect(boardCreateSchema.parse({ name: 'b', theme }).theme).toBe(theme);
    }
    expect(firstIssue(boardCreateSchema.safeParse({ name: 'b', theme: 'neon' }))).toEqual({
      path: 'theme',
      message: 'must be one of "dark", "light"',
    });
  });

  it('refuses bad values with a message naming the field', () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{}, 'name', ''],
      [{ name: '   ' }, 'name', 'must not be empty'],
      [{ name: 'b', columns: 0 }, 'columns', 'must be at least 1'],
      [{ name: 'b', rows: 2.5 }, 'rows', 'must be a whole number'],
      [{ name: 'b', widget_margins: -1 }, 'widget_margins', 'must not be negative'],
      [{ name: 'b', widget_padding: 101 }, 'widget_padding', 'must be at most 100'],
      [{ name: 'b', size: [1920] }, 'size', ''],
      [{ name: 'b', background_color: 'not a color!' }, 'background_color', 'must be a CSS color'],
      [{ name: 'b', background_url: 'ftp://x/y.png' }, 'background_url', 'must be an http or https URL'],
      [{ name: 'b', display_board_name: 'yes' }, 'display_board_name', ''],
    ];
    for (const [input, path, message] of cases) {
      const issue = firstIssue(boardCreateSchema.safeParse(input));
      expect(issue?.path, JSON.stringify(input)).toBe(path);
      expect(issue?.message).toContain(message);
    }
  });

  it('refuses unknown fields', () => {
    const issue = firstIssue(boardCreateSchema.safeParse({ name: 'b', colums: 3 }));
    expect(issue).toEqual({ path: 'colums', message: 'is not a known field' });
  });
});

describe('board update', () => {
  it('changes only the fields given, without filling defaults', () => {
    expect(boardUpdateSchema.parse({ theme: 'light' })).toEqual({ theme: 'light' });
    expect(boardUpdateSchema.parse({})).toEqual({});
  });

  it('validates what it is given', () => {
    expect(boardUpdateSchema.safeParse({ widget_margins: 'wide' }).success).toBe(false);
  });
});
