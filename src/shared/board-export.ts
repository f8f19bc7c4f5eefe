import { z } from 'zod';
import { colorSchema, tagSchema } from './common';
import { boardCreateSchema } from './board';
import { variantSchema } from './variants';
import { flatBackground, placementProblem, stackIndexSchema, widgetBackgroundSchema } from './widget';
import { metricsDataSchema } from './metrics';
import { customCodeSchema } from './web-content';

const exportedFlow = z.object({
  tag: tagSchema,
  /** Metrics of the flow; `{}` means no data yet. */
  data: metricsDataSchema.default(() => ({})),
  /** Set when the flow's source failed: the widget shows an error icon. */
  errored: z.boolean().default(false),
});

const exportedWidget = z.object({
  flow: exportedFlow,
  variant: variantSchema,
  column: z.int().min(0),
  row: z.int().min(0),
  width: z.int().min(1),
  height: z.int().min(1),
  in_board_index: stackIndexSchema,
  background: widgetBackgroundSchema.default('default'),
  /** A custom widget's own code (web-content.ts); absent or null for the others. */
  code: customCodeSchema.nullable().optional(),
});

/**
 * What an import takes of an exported widget: the original's `""` background (its exports carry
 * it as its clients sent it) as the theme's, and no `in_board_index`.
 */
const importable = exportedWidget
  .extend({ background: flatBackground.default('default') })
  .partial({ in_board_index: true });

/** The original product's older templates named the flow by a bare `tag` on the widget. */
const legacyWidget = importable.omit({ flow: true, code: true }).extend({ tag: tagSchema });

/**
 * The original product's widgets could have no flow (a clock, a box): its exports say `"flow":
 * null`. The import makes each a new flow of its variant. A bare `tag` is never read as no flow.
 */
const flowlessWidget = importable.extend({ flow: z.null().optional(), tag: z.undefined().optional() });

const importedWidget = z.union([importable, legacyWidget, flowlessWidget]).transform((widget) => {
  const { in_board_index, ...rest } = widget;
  const flow =
    'tag' in rest && rest.tag !== undefined
      ? { tag: rest.tag, data: {}, errored: false }
      : (rest.flow ?? null);
  const { variant, column, row, width, height, background } = rest;
  const code = 'code' in rest ? (rest.code ?? null) : null;
  return {
    flow,
    variant,
    column,
    row,
    width,
    height,
    background,
    code,
    in_board_index: in_board_index ?? -1,
  };
});

function checkPlacements(
  board: {
    columns: number;
    rows: number;
    widgets: { column: number; row: number; width: number; height: number }[];
  },
  ctx: z.RefinementCtx,
): void {
  board.widgets.forEach((widget, index) => {
    const problem = placementProblem(widget, board);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['widgets', index] });
  });
}

/**
 * What `POST /boards/import` accepts: our export, or the original product's (with
 * `widget_background` and widgets that may name their flow by a bare `tag`). Unknown fields are
 * ignored so exports of other versions import as they are. Widgets without an `in_board_index`
 * stack in the order given.
 */
export const boardImportSchema = boardCreateSchema
  .omit({ widget_color: true })
  .extend({
    widget_color: colorSchema.nullable().optional(),
    /** The original product's name for `widget_color`; "" meant the theme's own. */
    widget_background: z.union([z.literal(''), colorSchema]).optional(),
    widgets: z
      .array(importedWidget)
      .max(500, 'must hold at most 500 widgets')
      .default(() => []),
  })
  .strip()
  .superRefine(checkPlacements)
  .transform(({ widget_background, widget_color, widgets, ...board }) => ({
    ...board,
    widget_color: widget_color ?? (widget_background || null),
    widgets: widgets.map((widget, index) => ({
      ...widget,
      in_board_index: widget.in_board_index >= 0 ? widget.in_board_index : index,
    })),
  }));
export type BoardImport = z.output<typeof boardImportSchema>;

/** What `GET /boards/:id/export` returns: the board's settings and its widgets with their flows. */
export const boardExportSchema = boardCreateSchema
  .extend({ widgets: z.array(exportedWidget) })
  .superRefine(checkPlacements);
export type BoardExport = z.infer<typeof boardExportSchema>;
