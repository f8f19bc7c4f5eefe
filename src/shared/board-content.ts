import { z } from 'zod';
import { boardCreateSchema, boardSchema, type Board } from './board';
import { idSchema, timestampSchema } from './common';
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
 * What `PUT /boards/:id/content` takes: every board setting (those left out take their defaults),
 * the whole widget list (in drawing order when they carry no `in_board_index`), and the
 * `updated_at` the editor loaded, which must still be the board's.
 */
export const boardContentSaveSchema = z
  .strictObject({
    updated_at: timestampSchema,
    board: boardCreateSchema,
    widgets: z
      .array(contentWidgetSchema)
      .max(BOARD_CONTENT_MAX_WIDGETS, `must hold at most ${BOARD_CONTENT_MAX_WIDGETS} widgets`),
  })
  .superRefine(({ board, widgets }, ctx) => {
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
