import { z } from 'zod';
import { colorSchema, fontSizeSchema, idSchema, timestampSchema } from './common';
import { textSchema } from './limits';
import { mediaUrlSchema } from './media';
import { themeSchema } from './theme';

const gridCount = z
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(200, 'must be at most 200');
const spacing = z
  .int('must be a whole number')
  .min(0, 'must not be negative')
  .max(100, 'must be at most 100');
const pixels = z
  .int('must be a whole number')
  .min(100, 'must be at least 100')
  .max(16384, 'must be at most 16384');

/** The board's fields without defaults: the shape of an update. */
const boardFields = {
  name: textSchema.trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters'),
  theme: themeSchema,
  columns: gridCount,
  rows: gridCount,
  /** Native size [width, height] in pixels: laid out at this size, then scaled to the screen. */
  size: z.tuple([pixels, pixels], { error: 'must be [width, height] in pixels' }),
  /** A label such as "16:9" or the original product's "HDTV"; `size` is what lays the board out. */
  aspect_ratio: textSchema.trim().min(1, 'must not be empty').max(32, 'must be at most 32 characters'),
  display_board_name: z.boolean(),
  widget_margins: spacing,
  widget_padding: spacing,
  font_size: fontSizeSchema,
  /** "normal" means the theme's own font. */
  font_family: textSchema.trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
  background_color: colorSchema.nullable(),
  background_url: mediaUrlSchema.nullable(),
  widget_color: colorSchema.nullable(),
  widget_title_color: colorSchema.nullable(),
  widget_title_size: fontSizeSchema,
  /** The channels whose data sets this board can show; the first is the one shown by default. */
  channel_ids: z.array(idSchema).max(50, 'must hold at most 50 channels'),
};

/** Documented defaults (interface section 2 and 8; the 32 x 20 grid of the original HD templates). */
export const BOARD_DEFAULTS = {
  theme: 'dark',
  columns: 32,
  rows: 20,
  size: [1920, 1080],
  aspect_ratio: '16:9',
  display_board_name: false,
  widget_margins: 3,
  widget_padding: 8,
  font_size: 'normal',
  font_family: 'normal',
  background_color: null,
  background_url: null,
  widget_color: null,
  widget_title_color: null,
  widget_title_size: 'normal',
  channel_ids: [],
} as const satisfies Omit<{ [K in keyof typeof boardFields]: z.input<(typeof boardFields)[K]> }, 'name'>;

export const boardSchema = z.object({
  id: idSchema,
  ...boardFields,
  created_at: timestampSchema,
  updated_at: timestampSchema,
});
export type Board = z.infer<typeof boardSchema>;

const d = BOARD_DEFAULTS;
export const boardCreateSchema = z.strictObject({
  name: boardFields.name,
  theme: boardFields.theme.default(d.theme),
  columns: boardFields.columns.default(d.columns),
  rows: boardFields.rows.default(d.rows),
  size: boardFields.size.default([...d.size]),
  aspect_ratio: boardFields.aspect_ratio.default(d.aspect_ratio),
  display_board_name: boardFields.display_board_name.default(d.display_board_name),
  widget_margins: boardFields.widget_margins.default(d.widget_margins),
  widget_padding: boardFields.widget_padding.default(d.widget_padding),
  font_size: boardFields.font_size.default(d.font_size),
  font_family: boardFields.font_family.default(d.font_family),
  background_color: boardFields.background_color.default(d.background_color),
  background_url: boardFields.background_url.default(d.background_url),
  widget_color: boardFields.widget_color.default(d.widget_color),
  widget_title_color: boardFields.widget_title_color.default(d.widget_title_color),
  widget_title_size: boardFields.widget_title_size.default(d.widget_title_size),
  channel_ids: boardFields.channel_ids.default(() => []),
});
export type BoardCreate = z.infer<typeof boardCreateSchema>;
export type BoardSettings = Omit<BoardCreate, 'name'>;

export const boardUpdateSchema = z.strictObject(boardFields).partial();
export type BoardUpdate = z.infer<typeof boardUpdateSchema>;

/**
 * What `POST /boards` accepts: our fields, and what the original product's Go library sends with
 * every board it saves: `widget_background` (its name for `widget_color`; "" meant the theme's)
 * and a `widgets` list, always empty there (it places widgets one by one afterwards).
 */
export const boardCreateRequestSchema = boardCreateSchema
  .omit({ widget_color: true })
  .extend({
    widget_color: boardFields.widget_color.optional(),
    widget_background: z
      .union([z.literal(''), colorSchema], { error: 'must be "" (the theme\'s) or a CSS color' })
      .optional(),
    widgets: z
      .array(z.unknown())
      .max(0, 'must be empty: place widgets with POST /widgets, or import the board (POST /boards/import)')
      .optional(),
  })
  .transform(({ widget_background, widget_color, widgets: _widgets, ...board }) => ({
    ...board,
    widget_color: widget_color ?? (widget_background || null),
  }));

/** The original product's clients send the board's own id back in an update's body. */
export const boardPatchSchema = boardUpdateSchema.extend({ id: idSchema.optional() });

/** The board's query: the original product's `GetBoardByName` asks for the boards of one name. */
export const boardListQuerySchema = z.strictObject({ name: z.string().max(255).optional() });
