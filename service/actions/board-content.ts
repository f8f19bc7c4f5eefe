import type { Board } from '../../src/shared/board';
import type { BoardContent, BoardContentSave, BoardDuplicate } from '../../src/shared/board-content';
import type { FieldIssue } from '../../src/shared/issues';
import type { Flow } from '../../src/shared/flow';
import type { Variant } from '../../src/shared/variants';
import { placementOf, type Widget } from '../../src/shared/widget';
import type { ServiceContext } from '../context';
import { conflict, DomainError, invalid, notFound } from '../domain/errors';
import { refuseHttpMedia } from '../domain/http-media';
import { BoardRepository } from '../repositories/boards';
import { WidgetRepository, type NewWidget } from '../repositories/widgets';
import { channelsOrDefault, checkChannels } from './boards';
import { checkSavedFlows, createSavedFlows, writeSavedData } from './board-content-flows';
import { checkMediaExist } from './media';
import { checkCode, checkVariant, flowOf } from './widgets';

/** Refused, naming the board's updated_at, when the editor's copy is not the board's latest. */
function checkFresh(board: Board, loaded: string): void {
  if (Date.parse(board.updated_at) === Date.parse(loaded)) return;
  throw conflict(
    `the board was changed by someone else since you loaded it, at ${board.updated_at}; load it again`,
    [{ path: 'body.updated_at', message: `is not the board's updated_at, ${board.updated_at}` }],
  );
}

/** A widget as it will be written; `new_flow` names the flow of the save it shows, made in its transaction. */
type ResolvedWidget = NewWidget & { id?: string; new_flow?: string };

/** The flow a widget names: one that exists, or one the save creates (by its tag). */
async function widgetFlow(
  ctx: ServiceContext,
  widget: BoardContentSave['widgets'][number],
  created: ReadonlyMap<string, Variant>,
  at: string,
): Promise<Pick<Flow, 'id' | 'tag' | 'variant'> & { new_flow?: string }> {
  const variant = widget.flow_tag === undefined ? undefined : created.get(widget.flow_tag);
  if (widget.flow_tag === undefined || variant === undefined) return flowOf(ctx, widget, at);
  // Its id is known once the transaction has made it.
  return { id: '', tag: widget.flow_tag, variant, new_flow: widget.flow_tag };
}

/** Every widget's flow (and variant), all refusals at once; the widgets as they will be written. */
async function resolveWidgets(
  ctx: ServiceContext,
  boardId: string,
  save: BoardContentSave,
  created: ReadonlyMap<string, Variant>,
): Promise<ResolvedWidget[]> {
  const existing = new Set((await new WidgetRepository(ctx.db).listByBoard(boardId)).map((w) => w.id));
  const details: FieldIssue[] = [];
  let message: string | undefined;
  const resolved: ResolvedWidget[] = [];
  for (const [index, widget] of save.widgets.entries()) {
    const at = `body.widgets.${index}`;
    if (widget.id !== undefined && !existing.has(widget.id)) {
      details.push({ path: `${at}.id`, message: `names no widget of board ${boardId}` });
      message ??= `widget ${index} names no widget of board ${boardId}`;
      continue;
    }
    try {
      const flow = await widgetFlow(ctx, widget, created, at);
      checkVariant(flow, widget.variant, at);
      checkCode(flow.variant, widget.code, at);
      resolved.push({
        ...(widget.id === undefined ? {} : { id: widget.id }),
        ...(flow.new_flow === undefined ? {} : { new_flow: flow.new_flow }),
        variant: flow.variant,
        board_id: boardId,
        flow_id: flow.id,
        ...placementOf({ ...widget, in_board_index: widget.in_board_index ?? index }),
        // The whole widget as saved: code left out is none (a widget moved to another variant loses it).
        code: widget.code ?? null,
      });
    } catch (error) {
      if (!(error instanceof DomainError) || error.kind !== 'invalid') throw error;
      details.push(...error.details);
      message ??= `widget ${index}: ${error.message}`;
    }
  }
  if (message !== undefined) throw invalid(message, details);
  return resolved;
}

/**
 * Replaces the board's settings and its whole widget list in one transaction, announced by one
 * `board.changed`: widgets named by id are updated, new ones placed, those left out deleted; the
 * flows the save brings are created and its data written in the same transaction.
 * Refused (409, nothing written) unless `save.updated_at` is still the board's: the board row is
 * locked while it is checked and written, so of two saves from the same copy exactly one wins.
 */
export async function saveBoardContent(
  ctx: ServiceContext,
  boardId: string,
  save: BoardContentSave,
): Promise<BoardContent | null> {
  const current = await new BoardRepository(ctx.db).get(boardId);
  if (!current) return null;
  // Checked first too: a stale copy's widget ids may name widgets deleted since.
  checkFresh(current, save.updated_at);
  await checkChannels(ctx, save.board.channel_ids);
  refuseHttpMedia(ctx.config, [{ path: 'body.board.background_url', url: save.board.background_url }]);
  await checkMediaExist(ctx.db, [{ path: 'body.board.background_url', url: save.board.background_url }]);
  const created = checkSavedFlows(ctx, save);
  const widgets = await resolveWidgets(ctx, boardId, save, created);
  return ctx.changes.transaction(async (tx, emit) => {
    const boards = new BoardRepository(tx);
    const repository = new WidgetRepository(tx);
    const locked = await boards.getForUpdate(boardId);
    if (!locked) throw notFound(`board ${boardId}`);
    checkFresh(locked, save.updated_at);
    const next = { ...locked, ...save.board, channel_ids: channelsOrDefault(save.board.channel_ids) };
    const board = await boards.replace(next, ctx.clock.now());
    if (!board) throw notFound(`board ${boardId}`);
    const flowIds = await createSavedFlows(ctx, tx, emit, save);
    await writeSavedData(ctx, tx, emit, save);
    const kept = new Set(widgets.flatMap((widget) => (widget.id === undefined ? [] : [widget.id])));
    for (const widget of await repository.listByBoard(boardId)) {
      if (!kept.has(widget.id)) await repository.delete(boardId, widget.id);
    }
    for (const { id, new_flow, ...resolved } of widgets) {
      const widget = {
        ...resolved,
        flow_id: new_flow === undefined ? resolved.flow_id : (flowIds.get(new_flow) ?? ''),
      };
      const written =
        id === undefined
          ? await repository.create(widget)
          : await repository.replace({ id, ...widget, code: widget.code ?? null });
      // Deleted meanwhile through the widget routes, which leave the board's updated_at as it was.
      if (!written) throw conflict(`widget ${id ?? ''} was deleted meanwhile; load the board again`);
    }
    emit({ type: 'board.changed', board_id: boardId });
    return { board, widgets: await repository.listByBoard(boardId) };
  });
}

/** The board and its widgets in drawing order; null when there is no such board. */
export async function boardContent(ctx: ServiceContext, boardId: string): Promise<BoardContent | null> {
  const board = await new BoardRepository(ctx.db).get(boardId);
  if (!board) return null;
  return { board, widgets: await new WidgetRepository(ctx.db).listByBoard(boardId) };
}

const COPY_SUFFIX = ' (copy)';
const NAME_MAX = 255;

/**
 * A new board with the settings of `boardId` and copies of its widgets, showing the same flows.
 * Nothing is announced to devices: none shows the copy yet.
 */
export async function duplicateBoard(
  ctx: ServiceContext,
  boardId: string,
  body: BoardDuplicate,
): Promise<BoardContent | null> {
  const now = ctx.clock.now();
  return ctx.changes.transaction(async (tx, emit) => {
    const boards = new BoardRepository(tx);
    const repository = new WidgetRepository(tx);
    const source = await boards.get(boardId);
    if (!source) return null;
    const { id: _id, created_at: _created, updated_at: _updated, ...settings } = source;
    const name = body.name ?? `${source.name.slice(0, NAME_MAX - COPY_SUFFIX.length)}${COPY_SUFFIX}`;
    const board = await boards.create({ ...settings, name }, now);
    const widgets: Widget[] = [];
    for (const widget of await repository.listByBoard(boardId)) {
      const { variant, flow_id, code } = widget;
      widgets.push(
        await repository.create({ variant, flow_id, board_id: board.id, ...placementOf(widget), code }),
      );
    }
    emit({ type: 'console', resource: 'boards', id: board.id });
    return { board, widgets };
  });
}
