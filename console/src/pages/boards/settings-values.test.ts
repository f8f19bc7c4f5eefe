import { describe, expect, it } from 'vitest';
import { BOARD_DEFAULTS, boardSchema, boardUpdateSchema, type Board } from '../../../../src/shared/board';
import { validateBy } from '../../ui/form';
import { toBody, valuesOf } from './settings-values';

const board: Board = boardSchema.parse({
  ...BOARD_DEFAULTS,
  id: 'board',
  name: 'Hall',
  widget_color: '#112233',
  channel_ids: ['channel'],
  created_at: '2026-11-23T08:00:00.000Z',
  updated_at: '2026-11-23T09:00:00.000Z',
});

const validate = validateBy(boardUpdateSchema, toBody);

describe("the board settings form's values", () => {
  it('shows a color or background the board lacks as an empty field', () => {
    const values = valuesOf(board);
    expect(values).toMatchObject({ background_color: '', background_url: '', widget_title_color: '' });
    expect(values.widget_color).toBe('#112233');
    expect(values.size).toEqual([1920, 1080]);
    expect(values.size).not.toBe(board.size);
  });

  it('sends the board back as it was when nothing is edited, the channels it follows included', () => {
    const body = toBody(valuesOf(board));
    const { id: _id, created_at: _c, updated_at: _u, ...settings } = board;
    expect(body).toEqual(settings);
    expect(body.channel_ids).not.toBe(board.channel_ids);
    expect(validate(valuesOf(board))).toEqual({});
  });

  it('sends an emptied color or background as none, and trims the rest', () => {
    const body = toBody({
      ...valuesOf(board),
      widget_color: '   ',
      background_color: ' #000000 ',
      background_url: ' https://example.com/back.png ',
    });
    expect(body).toMatchObject({
      widget_color: null,
      background_color: '#000000',
      background_url: 'https://example.com/back.png',
    });
  });

  it('sends an emptied number as null, which the check refuses on that field', () => {
    const values = { ...valuesOf(board), columns: '', size: [1920, ''] as [number, string] };
    expect(toBody(values)).toMatchObject({ columns: null, size: [1920, null] });
    expect(Object.keys(validate(values)).sort()).toEqual(['columns', 'size.1']);
  });

  it('checks the edited numbers by the rules the service applies', () => {
    expect(validate({ ...valuesOf(board), rows: 0 })).toHaveProperty('rows');
    expect(validate({ ...valuesOf(board), name: '' })).toHaveProperty('name');
    expect(validate({ ...valuesOf(board), rows: 12, columns: 24 })).toEqual({});
  });
});
