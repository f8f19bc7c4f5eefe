import { z } from 'zod';
import { colorSchema, idSchema, tagSchema } from './common';
import { variantSchema } from './variants';
import { customCodeSchema } from './web-content';

/**
 * Grid positions count from 0, as in the original product's exports: on a 32-column board a
 * widget at column 0 with width 32 spans the whole width.
 */
const position = z
  .int('must be a whole number')
  .min(0, 'must not be negative')
  .max(199, 'must be at most 199');
const span = z.int('must be a whole number').min(1, 'must be at least 1').max(200, 'must be at most 200');

/** Stacking order: higher indexes draw over lower ones. Stored as a 32-bit integer. */
export const stackIndexSchema = z
  .int('must be a whole number')
  .min(0, 'must not be negative')
  .max(2_147_483_647, 'must be at most 2147483647');

/** "default" follows the board's theme, "none" is transparent, otherwise a color. */
export const widgetBackgroundSchema = z.union([z.literal('default'), z.literal('none'), colorSchema], {
  error: 'must be "default", "none" or a CSS color',
});

/** Where a widget stands on its board and how it looks there: what an export or a move carries. */
const placement = {
  column: position,
  row: position,
  width: span,
  height: span,
  in_board_index: stackIndexSchema,
  background: widgetBackgroundSchema,
};
export type WidgetPlacement = z.infer<z.ZodObject<typeof placement>>;

/** The placement fields of a widget (or of an exported one), and nothing else. */
export function placementOf(widget: WidgetPlacement): WidgetPlacement {
  const { column, row, width, height, in_board_index, background } = widget;
  return { column, row, width, height, in_board_index, background };
}

export const widgetSchema = z.object({
  id: idSchema,
  variant: variantSchema,
  board_id: idSchema,
  flow_id: idSchema,
  ...placement,
  /** A custom widget's own HTML, CSS and JavaScript; null for every other variant (and a custom one without code). */
  code: customCodeSchema.nullable(),
});
export type Widget = z.infer<typeof widgetSchema>;

/** A widget shows an existing flow (by id or tag); its variant defaults to the flow's. */
export const widgetCreateSchema = z
  .strictObject({
    flow_id: idSchema.optional(),
    flow_tag: tagSchema.optional(),
    variant: variantSchema.optional(),
    ...placement,
    in_board_index: placement.in_board_index.optional(),
    background: placement.background.default('default'),
    code: customCodeSchema.nullable().optional(),
  })
  .refine((w) => (w.flow_id === undefined) !== (w.flow_tag === undefined), {
    message: 'give exactly one of flow_id and flow_tag',
    path: ['flow_id'],
  });
export type WidgetCreate = z.infer<typeof widgetCreateSchema>;

/** Moving or resizing a widget. */
export const widgetUpdateSchema = z
  .strictObject({ ...placement, code: customCodeSchema.nullable() })
  .partial();
export type WidgetUpdate = z.infer<typeof widgetUpdateSchema>;

export interface GridPlacement {
  column: number;
  row: number;
  width: number;
  height: number;
}

/** Why a placement does not fit a board's grid, or null when it fits. */
export function placementProblem(
  widget: GridPlacement,
  grid: { columns: number; rows: number },
): string | null {
  if (widget.column + widget.width > grid.columns) {
    return `column ${widget.column} + width ${widget.width} exceeds the board's ${grid.columns} columns`;
  }
  if (widget.row + widget.height > grid.rows) {
    return `row ${widget.row} + height ${widget.height} exceeds the board's ${grid.rows} rows`;
  }
  return null;
}

/** A widget as the original product answered it: its flow also as the one-element `flow_ids`. */
export const flatWidgetSchema = widgetSchema.extend({ flow_ids: z.array(idSchema) });
export type FlatWidget = z.infer<typeof flatWidgetSchema>;

export const withFlowIds = (widget: Widget): FlatWidget => ({ ...widget, flow_ids: [widget.flow_id] });

/** The original product's clients send "" for the background they leave alone: the theme's. */
export const flatBackground = z
  .union([z.literal(''), widgetBackgroundSchema], { error: 'must be "", "default", "none" or a CSS color' })
  .transform((background) => (background === '' ? 'default' : background));

/**
 * What `POST /widgets` accepts: a widget as the original product's Go library and Node client send
 * it, its board in the body, its flow as `flow_id`, `flow_tag` or a one-element `flow_ids`, and
 * the empty `id` of a widget not saved yet. Out comes the board and what `POST
 * /boards/:id/widgets` takes. The original's widgets could have no flow (a clock, a box): without
 * one the widget gets a new flow of its variant, named in `new_flow` (null when a flow is named).
 */
export const flatWidgetCreateSchema = z
  .strictObject({
    id: z.literal('', { error: 'must be empty or absent: the service gives the id' }).optional(),
    board_id: idSchema,
    flow_id: idSchema.optional(),
    flow_ids: z.array(idSchema).length(1, 'must hold exactly one flow').optional(),
    flow_tag: tagSchema.optional(),
    variant: variantSchema.optional(),
    ...placement,
    in_board_index: placement.in_board_index.optional(),
    background: flatBackground.default('default'),
    code: customCodeSchema.nullable().optional(),
  })
  .superRefine((w, ctx) => {
    const [listed] = w.flow_ids ?? [];
    if (w.flow_id !== undefined && listed !== undefined && listed !== w.flow_id) {
      ctx.addIssue({ code: 'custom', path: ['flow_ids'], message: 'must be [flow_id] when both are given' });
    }
    const byId = (w.flow_id ?? listed) !== undefined;
    if (byId && w.flow_tag !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['flow_id'],
        message: 'give exactly one of flow_id (or flow_ids) and flow_tag',
      });
    }
    // Without a flow the variant says which flow to make.
    if (!byId && w.flow_tag === undefined && w.variant === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['variant'],
        message: 'give the variant of the new flow to make, or the flow as flow_id, flow_ids or flow_tag',
      });
    }
  })
  .transform(({ id: _id, board_id, flow_ids, ...widget }) => {
    const flow_id = widget.flow_id ?? flow_ids?.[0];
    const flowless = flow_id === undefined && widget.flow_tag === undefined;
    return {
      board_id,
      widget: { ...widget, flow_id } satisfies WidgetCreate,
      new_flow: flowless ? (widget.variant ?? null) : null,
    };
  });

/** What `PATCH /widgets/:id` accepts: our update, the widget's own `id`, and "" as the background. */
export const flatWidgetUpdateSchema = z
  .strictObject({
    id: idSchema,
    ...placement,
    background: flatBackground,
    code: customCodeSchema.nullable(),
  })
  .partial();
