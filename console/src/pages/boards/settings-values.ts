import type { Board, BoardUpdate } from '../../../../src/shared/board';

/** The settings form's fields: the board's, with colors and background as text ("" = none). */
export interface SettingsValues {
  name: string;
  theme: Board['theme'];
  columns: number | string;
  rows: number | string;
  size: [number | string, number | string];
  aspect_ratio: string;
  display_board_name: boolean;
  widget_margins: number | string;
  widget_padding: number | string;
  font_size: Board['font_size'];
  font_family: string;
  background_color: string;
  background_url: string;
  widget_color: string;
  widget_title_color: string;
  widget_title_size: Board['widget_title_size'];
  /** The channels whose notifications the board shows. */
  channel_ids: string[];
}

export function valuesOf(board: Board): SettingsValues {
  return {
    name: board.name,
    theme: board.theme,
    columns: board.columns,
    rows: board.rows,
    size: [...board.size],
    aspect_ratio: board.aspect_ratio,
    display_board_name: board.display_board_name,
    widget_margins: board.widget_margins,
    widget_padding: board.widget_padding,
    font_size: board.font_size,
    font_family: board.font_family,
    background_color: board.background_color ?? '',
    background_url: board.background_url ?? '',
    widget_color: board.widget_color ?? '',
    widget_title_color: board.widget_title_color ?? '',
    widget_title_size: board.widget_title_size,
    channel_ids: [...board.channel_ids],
  };
}

/** Mantine's NumberInput gives "" when emptied: sent as null, which the schema refuses on its field. */
const numberOf = (value: number | string): unknown => (value === '' ? null : value);
const orNull = (value: string): string | null => (value.trim() === '' ? null : value.trim());

/** The PATCH body: every setting, the channels it follows included. */
export function toBody(values: SettingsValues): Record<keyof BoardUpdate, unknown> {
  return {
    name: values.name,
    theme: values.theme,
    columns: numberOf(values.columns),
    rows: numberOf(values.rows),
    size: values.size.map(numberOf),
    aspect_ratio: values.aspect_ratio,
    display_board_name: values.display_board_name,
    widget_margins: numberOf(values.widget_margins),
    widget_padding: numberOf(values.widget_padding),
    font_size: values.font_size,
    font_family: values.font_family,
    background_color: orNull(values.background_color),
    background_url: orNull(values.background_url),
    widget_color: orNull(values.widget_color),
    widget_title_color: orNull(values.widget_title_color),
    widget_title_size: values.widget_title_size,
    channel_ids: values.channel_ids,
  };
}
