import type { Board } from '../../src/shared/board';
import type { BoardExport } from '../../src/shared/board-export';
import { placementOf } from '../../src/shared/widget';
import type { Queryable } from '../db/database';
import { BoardRepository } from '../repositories/boards';
import { WidgetRepository } from '../repositories/widgets';

/** The settings of a board without what is specific to this service (id, timestamps). */
function boardSettings(board: Board): Omit<BoardExport, 'widgets'> {
  const { id: _id, created_at: _created, updated_at: _updated, ...settings } = board;
  return settings;
}

/** The board with its widgets and their flows' tag, data and errored flag; null when unknown. */
export async function buildExport(db: Queryable, boardId: string): Promise<BoardExport | null> {
  const board = await new BoardRepository(db).get(boardId);
  if (!board) return null;
  const widgets = await new WidgetRepository(db).listWithFlows(boardId);
  return {
    ...boardSettings(board),
    widgets: widgets.map((widget) => ({
      flow: { tag: widget.flow.tag, data: widget.flow.data, errored: widget.flow.errored },
      variant: widget.variant,
      ...placementOf(widget),
      code: widget.code,
    })),
  };
}
