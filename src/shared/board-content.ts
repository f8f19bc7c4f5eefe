import { z } from 'zod';
import { boardCreateSchema, boardSchema, type Board } from './board';
import { idSchema, tagSchema, timestampSchema } from './common';
import { metricsDataSchema } from './metrics';
import { variantSchema } from './variants';
import { placementProblem, widgetCreateSchema, widgetSchema, type Widget } from './widget';

/** As many widgets as an import may carry. */
export const BOARD_CONTENT_MAX_WIDGETS = 500;

/**
 * A widget of a saved board: with the `id` of one of the board's widgets it updates that widget,
 * without it places a new one. Otherwise a widget as `POST /boards/:id/widgets` takes it; its
 * `code` left out means none, as every widget is saved whole.
 */
export const contentWidgetSchema = widgetCreateSchema.safeExtend({ id: idSchema.optional() });
export type ContentWidget = z.infer<typeof contentWidgetSchema>;

/**
 * A flow the save creates for its new widgets (which name it by `flow_tag`), with its first data:
 * created in the save's transaction, so a board never saved leaves no flow behind.
 */
export const contentFlowSchema = z.strictObject({
  tag: tagSchema,
  variant: variantSchema,
  data: metricsDataSchema.optional(),
});
export type ContentFlow = z.infer<typeof contentFlowSchema>;

/** The new data of a flow the board shows, written with the save (as `PUT /flows/:tag/metrics`). */
export const contentDataSchema = z.strictObject({ tag: tagSchema, data: metricsDataSchema });
export type ContentData = z.infer<typeof contentDataSchema>;

const listOf = <T extends z.ZodType>(item: T) =>
  z.array(item).max(BOARD_CONTENT_MAX_WIDGETS, `must hold at most ${BOARD_CONTENT_MAX_WIDGETS} items`);

/**
 * What `PUT /boards/:id/content` takes: every board setting (those left out take their defaults),
 * the whole widget list (in drawing order when they carry no `in_board_index`), and the
 * `updated_at` the editor loaded, which must still be the board's. Optionally the flows its new
 * widgets show (`flows`) and new data for flows (`data`): the editor's one Save writes all of it
 * in one transaction, or nothing.
 */
export const boardContentSaveSchema = z
  .strictObject({
    updated_at: timestampSchema,
    board: boardCreateSchema,
    widgets: z
      .array(contentWidgetSchema)
      .max(BOARD_CONTENT_MAX_WIDGETS, `must hold at most ${BOARD_CONTENT_MAX_WIDGETS} widgets`),
    flows: listOf(contentFlowSchema).optional(),
    data: listOf(contentDataSchema).optional(),
  })
  .superRefine(({ board, widgets, flows = [], data = [] }, ctx) => {
    const tags = new Set<string>();
    for (const [list, items] of [
      ['flows', flows],
      ['data', data],
    ] as const) {
      items.forEach(({ tag }, index) => {
        if (tags.has(tag))
          ctx.addIssue({ code: 'custom', message: 'names a flow given before', path: [list, index, 'tag'] });
        tags.add(tag);
      });
    }
    const seen = new Set<string>();
    widgets.forEach((widget, index) => {
      // The same message and side as placing one widget answers (actions/widgets.ts).
      const problem = placementProblem(widget, board);
      if (problem) {
        const side = widget.column + widget.width > board.columns ? 'width' : 'height';
        ctx.addIssue({ code: 'custom', message: problem, path: ['widgets', index, side] });
      }
      if (widget.id === undefined) return;
      if (seen.has(widget.id)) {
        ctx.addIssue({
          code: 'custom',
          message: 'names a widget given before',
          path: ['widgets', index, 'id'],
        });
      }
      seen.add(widget.id);
    });
  });
export type BoardContentSave = z.infer<typeof boardContentSaveSchema>;

/** A board and its widgets in drawing order: what the editor loads and a save answers. */
export const boardContentSchema = z.object({ board: boardSchema, widgets: z.array(widgetSchema) });
export type BoardContent = z.infer<typeof boardContentSchema>;

/** What `POST /boards/:id/duplicate` takes: the copy's name, "<name> (copy)" when left out. */
export const boardDuplicateSchema = z.strictObject({
  name: boardCreateSchema.shape.name.optional(),
});
export type BoardDuplicate = z.infer<typeof boardDuplicateSchema>;

/** The save that writes `content` back as it is: the editor starts from it and changes it. */
export function toContentSave({
  board,
  widgets,
}: {
  board: Board;
  widgets: readonly Widget[];
}): BoardContentSave {
  const { id: _id, created_at: _created, updated_at, ...settings } = board;
  return {
    updated_at,
    board: { ...settings, size: [...settings.size], channel_ids: [...settings.channel_ids] },
    widgets: widgets.map(
      ({ id, flow_id, variant, column, row, width, height, in_board_index, background, code }) => ({
        id,
        flow_id,
        variant,
        column,
        row,
        width,
        height,
        in_board_index,
        background,
        code,
      }),
    ),
  };
}
