import type { Board } from '../../src/shared/board';
import { isFlowReady, type Flow } from '../../src/shared/flow';
import type { Variant } from '../../src/shared/variants';
import type { CustomCode } from '../../src/shared/web-content';
import {
  placementProblem,
  type GridPlacement,
  type Widget,
  type WidgetCreate,
  type WidgetUpdate,
} from '../../src/shared/widget';
import { defaultChannelId } from '../accounts/accounts';
import type { ServiceContext } from '../context';
import type { Queryable } from '../db/database';
import { DomainError, invalid, notFound } from '../domain/errors';
import type { Emit } from '../realtime/changes';
import { BoardRepository } from '../repositories/boards';
import { FlowRepository } from '../repositories/flows';
import { freeFlowTag } from '../repositories/tags';
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

/** The flow a widget names by id or tag; `at` prefixes the paths. */
export async function flowOf(
  ctx: ServiceContext,
  body: Pick<WidgetCreate, 'flow_id' | 'flow_tag'>,
  at = 'body',
): Promise<Flow> {
  const flows = new FlowRepository(ctx.db);
  if (body.flow_id !== undefined) {
    const flow = await flows.get(body.flow_id);
    if (!flow) {
      throw invalid(`unknown flow ${body.flow_id}`, [{ path: `${at}.flow_id`, message: 'names no flow' }]);
    }
    return flow;
  }
  const flow = body.flow_tag === undefined ? null : await flows.getByTag(body.flow_tag);
  if (!flow) {
    throw invalid(`no flow has the tag "${body.flow_tag ?? ''}"`, [
      { path: `${at}.flow_tag`, message: 'names no flow' },
    ]);
  }
  return flow;
}

/** A widget's variant, when given, must be its flow's. */
export function checkVariant(
  flow: Pick<Flow, 'tag' | 'variant'>,
  variant: WidgetCreate['variant'],
  at = 'body',
): void {
  if (variant !== undefined && variant !== flow.variant) {
    throw invalid(`the widget is a ${variant} but the flow "${flow.tag}" is a ${flow.variant}`, [
      { path: `${at}.variant`, message: `must be "${flow.variant}", the flow's variant` },
    ]);
  }
}

/**
 * Only a custom widget runs code of its own: code given to any other variant is refused rather
 * than kept unseen (a widget's variant is its flow's and changes only with its flow).
 */
export function checkCode(variant: Variant, code: CustomCode | null | undefined, at = 'body'): void {
  if (code === null || code === undefined || variant === 'custom') return;
  throw invalid(`only a custom widget has code; this widget is a ${variant}`, [
    { path: `${at}.code`, message: `must be null: a ${variant} widget runs no code of its own` },
  ]);
}

/**
 * Tells the devices showing the board, and moves the board's updated_at on: an editor holding a
 * copy loaded before this widget write is refused rather than undoing it (actions/board-content.ts).
 */
async function boardChanged(ctx: ServiceContext, tx: Queryable, emit: Emit, boardId: string): Promise<void> {
  await new BoardRepository(tx).touch(boardId, ctx.clock.now());
  emit({ type: 'board.changed', board_id: boardId });
}

/** Places a widget showing an existing flow (by id or tag) on the board; on top unless told. */
export async function createWidget(
  ctx: ServiceContext,
  boardId: string,
  body: WidgetCreate,
): Promise<Widget> {
  const board = await boardOf(ctx, boardId);
  const flow = await flowOf(ctx, body);
  checkVariant(flow, body.variant);
  checkCode(flow.variant, body.code);
  checkFits(body, board);
  return ctx.changes.transaction((tx, emit) => placeWidget(ctx, tx, emit, board, flow, body));
}

/** Writes the widget showing the flow, on top unless told, and tells the board's devices. */
async function placeWidget(
  ctx: ServiceContext,
  tx: Queryable,
  emit: Emit,
  board: Board,
  flow: Pick<Flow, 'id' | 'variant'>,
  body: WidgetCreate,
): Promise<Widget> {
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
    code: body.code ?? null,
  });
  await boardChanged(ctx, tx, emit, board.id);
  return created;
}

/** Two creations may pick the same free tag at once (PostgreSQL); the loser picks again. */
const TAG_ATTEMPTS = 5;

/**
 * Places a widget with a new flow of `variant` (no data, the default channel) tagged
 * `<board name>-<variant>`, `-2`, `-3`… when taken: the original product's widgets could have no
 * flow (a clock, a box) and here every widget shows one. The flow and the widget are written in
 * one transaction, so a refusal leaves no flow behind.
 */
export async function createWidgetWithNewFlow(
  ctx: ServiceContext,
  boardId: string,
  variant: Variant,
  body: WidgetCreate,
): Promise<Widget> {
  const board = await boardOf(ctx, boardId);
  checkCode(variant, body.code);
  checkFits(body, board);
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.changes.transaction(async (tx, emit) => {
        const source = { source: null, parameters: null };
        const flow = await new FlowRepository(tx).create({
          ...source,
          tag: await freeFlowTag(tx, board.name, variant),
          variant,
          type: 'default',
          channel_id: defaultChannelId(),
          enabled: isFlowReady(source),
          created_at: ctx.clock.now(),
        });
        // No device shows the flow but through this widget; the consoles list it.
        emit({ type: 'console', resource: 'flows', id: flow.id });
        return placeWidget(ctx, tx, emit, board, flow, body);
      });
    } catch (error) {
      // A new flow's only conflict is its tag, taken by another request since it was chosen.
      const taken = error instanceof DomainError && error.kind === 'conflict';
      if (!taken || attempt >= TAG_ATTEMPTS) throw error;
    }
  }
}

/** Moves, resizes, restacks a widget or changes its code; null when the board has no such widget. */
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
  checkCode(next.variant, patch.code);
  checkFits(next, board);
  return ctx.changes.transaction(async (tx, emit) => {
    const replaced = await new WidgetRepository(tx).replace(next);
    if (replaced) await boardChanged(ctx, tx, emit, boardId);
    return replaced;
  });
}

/** Takes a widget off its board (its flow stays); false when the board has no such widget. */
export async function deleteWidget(ctx: ServiceContext, boardId: string, widgetId: string): Promise<boolean> {
  await boardOf(ctx, boardId);
  return ctx.changes.transaction(async (tx, emit) => {
    const gone = await new WidgetRepository(tx).delete(boardId, widgetId);
    if (gone) await boardChanged(ctx, tx, emit, boardId);
    return gone;
  });
}
