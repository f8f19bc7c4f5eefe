import type { Board, BoardCreate, BoardUpdate } from '../../src/shared/board';
import type { BoardImport } from '../../src/shared/board-export';
import type { Flow } from '../../src/shared/flow';
import { toFieldIssues, type FieldIssue } from '../../src/shared/issues';
import { parseMetrics } from '../../src/shared/metrics';
import { placementOf, placementProblem } from '../../src/shared/widget';
import { defaultChannelId } from '../accounts/accounts';
import type { ServiceContext } from '../context';
import { conflict, DomainError, invalid, notFound } from '../domain/errors';
import { refuseHttpMedia } from '../domain/http-media';
import { BoardRepository } from '../repositories/boards';
import { FlowRepository } from '../repositories/flows';
import { freeFlowTag } from '../repositories/tags';
import { WidgetRepository } from '../repositories/widgets';
import { checkMediaExist } from './media';
import { checkCode } from './widgets';

/** The channels a board gets: those given, or the account's default channel. */
export function channelsOrDefault(channelIds: readonly string[]): string[] {
  return channelIds.length > 0 ? [...channelIds] : [defaultChannelId()];
}

export async function checkChannels(ctx: ServiceContext, channelIds: readonly string[]): Promise<void> {
  const missing = await new BoardRepository(ctx.db).missingChannels(channelIds);
  if (missing.length > 0) {
    const list = missing.map((id) => `"${id}"`).join(', ');
    throw invalid(`unknown channel ${list}`, [
      { path: 'body.channel_ids', message: `names no channel: ${list}` },
    ]);
  }
}

/** A smaller grid must still hold every widget of the board. */
async function checkGrid(ctx: ServiceContext, board: Board): Promise<void> {
  const details: FieldIssue[] = [];
  for (const widget of await new WidgetRepository(ctx.db).listByBoard(board.id)) {
    const problem = placementProblem(widget, board);
    if (!problem) continue;
    const path = widget.column + widget.width > board.columns ? 'body.columns' : 'body.rows';
    details.push({ path, message: `would leave widget ${widget.id} off the grid: ${problem}` });
  }
  const first = details[0];
  if (first) throw invalid(first.message, details);
}

/** A board; settings not given take their defaults. No device shows it yet. */
export async function createBoard(ctx: ServiceContext, body: BoardCreate): Promise<Board> {
  await checkChannels(ctx, body.channel_ids);
  refuseHttpMedia(ctx.config, [{ path: 'body.background_url', url: body.background_url }]);
  await checkMediaExist(ctx.db, [{ path: 'body.background_url', url: body.background_url }]);
  const board = await new BoardRepository(ctx.db).create(
    { ...body, channel_ids: channelsOrDefault(body.channel_ids) },
    ctx.clock.now(),
  );
  // No device to tell, but the consoles list it.
  await ctx.changes.publish({ type: 'console', resource: 'boards', id: board.id });
  return board;
}

/** Null when there is no such board. An empty patch changes nothing and tells nobody. */
export async function updateBoard(
  ctx: ServiceContext,
  id: string,
  patch: BoardUpdate,
): Promise<Board | null> {
  const current = await new BoardRepository(ctx.db).get(id);
  if (!current || Object.keys(patch).length === 0) return current;
  if (patch.channel_ids) await checkChannels(ctx, patch.channel_ids);
  refuseHttpMedia(ctx.config, [{ path: 'body.background_url', url: patch.background_url }]);
  await checkMediaExist(ctx.db, [{ path: 'body.background_url', url: patch.background_url }]);
  const next: Board = {
    ...current,
    ...patch,
    channel_ids: patch.channel_ids ? channelsOrDefault(patch.channel_ids) : current.channel_ids,
  };
  if (next.columns < current.columns || next.rows < current.rows) await checkGrid(ctx, next);
  return ctx.changes.transaction(async (tx, emit) => {
    const board = await new BoardRepository(tx).replace(next, ctx.clock.now());
    if (board) emit({ type: 'board.changed', board_id: board.id });
    return board;
  });
}

/** Deletes the board with its widgets and takes it out of every playlist that plays it. */
export async function deleteBoard(ctx: ServiceContext, id: string): Promise<void> {
  const now = ctx.clock.now();
  await ctx.changes.transaction(async (tx, emit) => {
    const repository = new BoardRepository(tx);
    const changed = await repository.removeFromPlaylists(id, now);
    // Thrown, not answered: the playlists' change is rolled back with it.
    if (!(await repository.delete(id))) throw notFound(`board ${id}`);
    for (const playlistId of changed) {
      emit({ type: 'playlist.changed', playlist_id: playlistId });
    }
    emit({ type: 'board.changed', board_id: id });
  });
}

function describeWidget(index: number, tag: string): string {
  return `widget ${index} (flow "${tag}")`;
}

type ImportedWidget = BoardImport['widgets'][number];

/** A flow an import names that does not exist yet, made with the widget's data. */
async function importFlow(
  flows: FlowRepository,
  widget: ImportedWidget & { flow: NonNullable<ImportedWidget['flow']> },
  index: number,
  channelId: string,
  now: Date,
): Promise<Flow> {
  const { tag } = widget.flow;
  const parsed = parseMetrics(widget.variant, widget.flow.data);
  if (!parsed.success) {
    const details = toFieldIssues(parsed.error).map((issue) => ({
      path: `body.widgets.${index}.flow.data`,
      message: issue.path ? `${issue.path}: ${issue.message}` : issue.message,
    }));
    throw invalid(`${describeWidget(index, tag)}: its data does not fit a ${widget.variant}`, details);
  }
  const flow = { type: 'default' as const, variant: widget.variant, tag, enabled: true };
  const input = { ...flow, channel_id: channelId, source: null, parameters: null, created_at: now };
  try {
    return await flows.create(input, parsed.data);
  } catch (error) {
    // Another request made the flow meanwhile: the same answer as a tag taken.
    if (error instanceof DomainError && error.kind === 'conflict') {
      throw conflict('a flow this import names was created meanwhile; import again to reuse it');
    }
    throw error;
  }
}

/**
 * Creates the board, the flows its widgets name that do not exist yet, and the widgets, in one
 * transaction: any refusal leaves nothing behind. Flows that exist are reused as they are (their
 * data is not overwritten). Nothing is announced: no device shows any of it yet. Returns the new
 * board's id.
 */
export async function importBoard(ctx: ServiceContext, input: BoardImport): Promise<string> {
  const { widgets: imported, ...settings } = input;
  const now = ctx.clock.now();
  return ctx.changes.transaction(async (tx, emit) => {
    const boards = new BoardRepository(tx);
    const widgets = new WidgetRepository(tx);
    const flowRepository = new FlowRepository(tx);
    // An export carries the channel ids of the service it came from: keep those that exist here.
    const missing = new Set(await boards.missingChannels(settings.channel_ids));
    const channelIds = channelsOrDefault(settings.channel_ids.filter((id) => !missing.has(id)));
    const board = await boards.create({ ...settings, channel_ids: channelIds }, now);
    // Two widgets may show the same flow: the second finds the one the first made.
    const flows = new Map<string, Flow>();
    // The tags the import names, which the new flow of a widget without one must not take.
    const named = new Set(imported.flatMap((widget) => (widget.flow ? [widget.flow.tag] : [])));
    const channelId = channelIds[0] ?? defaultChannelId();
    for (const [index, widget] of imported.entries()) {
      // The original's widget without a flow (a clock, a box) gets a new one, as POST /widgets gives it.
      const given = widget.flow ?? {
        tag: await freeFlowTag(tx, board.name, widget.variant, named),
        data: {},
        errored: false,
      };
      const { tag } = given;
      const existing = flows.get(tag) ?? (await flowRepository.getByTag(tag));
      if (existing && existing.variant !== widget.variant) {
        throw conflict(
          `${describeWidget(index, tag)} is a ${widget.variant} but the flow "${tag}" is a ${existing.variant}`,
          [
            {
              path: `body.widgets.${index}.variant`,
              message: `must be "${existing.variant}", the flow's variant`,
            },
          ],
        );
      }
      const flow =
        existing ?? (await importFlow(flowRepository, { ...widget, flow: given }, index, channelId, now));
      flows.set(tag, flow);
      checkCode(widget.variant, widget.code, `body.widgets.${index}`);
      await widgets.create({
        variant: widget.variant,
        board_id: board.id,
        flow_id: flow.id,
        ...placementOf(widget),
        code: widget.code,
      });
    }
    emit({ type: 'console', resource: 'boards', id: board.id });
    emit({ type: 'console', resource: 'flows' });
    return board.id;
  });
}
