import type { Board } from '../../src/shared/board';
import type { Flow } from '../../src/shared/flow';
import {
  placementProblem,
  type GridPlacement,
  type Widget,
  type WidgetCreate,
  type WidgetUpdate,
} from '../../src/shared/widget';
import type { ServiceContext } from '../context';
import { invalid, notFound } from '../domain/errors';
import type { Emit } from '../realtime/publisher';
import { rooms } from '../realtime/rooms';
import { BoardRepository } from '../repositories/boards';
import { FlowRepository } from '../repositories/flows';
import { WidgetRepository } from '../repositories/widgets';

/** Every widget action is on a board that must exist. */
async function boardOf(ctx: ServiceContext, id: string): Promise<Board> {
  const board = await new BoardRepository(ctx.db).get(id);
  if (!board) throw notFound(`board ${id}`);
  return board;
}

/** Refused naming the side of the grid the widget overflows. */
function checkFits(widget: GridPlacement, board: Board): void {
  const problem = placementProblem(widget, board);
  if (!problem) return;
  const horizontal = widget.column + widget.width > board.columns;
  throw invalid(`the widget does not fit the board: ${problem}`, [
    { path: horizontal ? 'body.width' : 'body.height', message: problem },
  ]);
}

async function flowOf(ctx: ServiceContext, body: WidgetCreate): Promise<Flow> {
  const flows = new FlowRepository(ctx.db);
  if (body.flow_id !== undefined) {
    const flow = await flows.get(body.flow_id);
    if (!flow) {
      throw invalid(`unknown flow ${body.flow_id}`, [{ path: 'body.flow_id', message: 'names no flow' }]);
    }
    return flow;
  }
  const flow = body.flow_tag === undefined ? null : await flows.getByTag(body.flow_tag);
  if (!flow) {
    throw invalid(`no flow has the tag "${body.flow_tag ?? ''}"`, [
      { path: 'body.flow_tag', message: 'names no flow' },
    ]);
  }
  return flow;
}

const boardChanged = (emit: Emit, boardId: string) =>
  emit({ type: 'board.changed', board_id: boardId }, [rooms.board(boardId)]);

/** Places a widget showing an existing flow (by id or tag) on the board; on top unless told. */
export async function createWidget(
  ctx: ServiceContext,
  boardId: string,
  body: WidgetCreate,
): Promise<Widget> {
  const board = await boardOf(ctx, boardId);
  const flow = await flowOf(ctx, body);
  if (body.variant !== undefined && body.variant !== flow.variant) {
    throw invalid(`the widget is a ${body.variant} but the flow "${flow.tag}" is a ${flow.variant}`, [
      { path: 'body.variant', message: `must be "${flow.variant}", the flow's variant` },
    ]);
  }
  checkFits(body, board);
  return ctx.events.transaction(async (tx, emit) => {
    const repository = new WidgetRepository(tx);
    const created = await repository.create({
      variant: flow.variant,
      board_id: board.id,
      flow_id: flow.id,
      column: body.column,
      row: body.row,
      width: body.width,
      height: body.height,
      in_board_index: body.in_board_index ?? (await repository.nextIndex(board.id)),
      background: body.background,
    });
    boardChanged(emit, board.id);
    return created;
  });
}

/** Moves, resizes or restacks a widget; null when the board has no such widget. */
export async function updateWidget(
  ctx: ServiceContext,
  boardId: string,
  widgetId: string,
  patch: WidgetUpdate,
): Promise<Widget | null> {
  const board = await boardOf(ctx, boardId);
  const current = await new WidgetRepository(ctx.db).get(boardId, widgetId);
  if (!current || Object.keys(patch).length === 0) return current;
  const next = { ...current, ...patch };
  checkFits(next, board);
  return ctx.events.transaction(async (tx, emit) => {
    const replaced = await new WidgetRepository(tx).replace(next);
    if (replaced) boardChanged(emit, boardId);
    return replaced;
  });
}

/** Takes a widget off its board (its flow stays); false when the board has no such widget. */
export async function deleteWidget(ctx: ServiceContext, boardId: string, widgetId: string): Promise<boolean> {
  await boardOf(ctx, boardId);
  return ctx.events.transaction(async (tx, emit) => {
    const gone = await new WidgetRepository(tx).delete(boardId, widgetId);
    if (gone) boardChanged(emit, boardId);
    return gone;
  });
}
