import type { Board } from '../../src/shared/board';
import type { BoardExport, BoardImport } from '../../src/shared/board-export';
import { toFieldIssues } from '../../src/shared/issues';
import { parseMetrics } from '../../src/shared/metrics';
import { DEFAULT_CHANNEL_ID } from '../bootstrap';
import { isUniqueViolation } from '../db/constraint-errors';
import type { Database, Queryable } from '../db/database';
import { HttpError } from '../http/errors';
import { BoardRepository } from '../repositories/boards';
import type { Flow } from '../../src/shared/flow';
import { FlowRepository } from '../repositories/flows';
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
      column: widget.column,
      row: widget.row,
      width: widget.width,
      height: widget.height,
      in_board_index: widget.in_board_index,
      background: widget.background,
    })),
  };
}

/** The channels a new board gets: those given, or the account's default channel. */
export function channelsOrDefault(channelIds: readonly string[]): string[] {
  return channelIds.length > 0 ? [...channelIds] : [DEFAULT_CHANNEL_ID];
}

export async function checkChannels(boards: BoardRepository, channelIds: readonly string[]): Promise<void> {
  const missing = await boards.missingChannels(channelIds);
  if (missing.length > 0) {
    const list = missing.map((id) => `"${id}"`).join(', ');
    throw HttpError.badRequest(`unknown channel ${list}`, [
      { path: 'body.channel_ids', message: `names no channel: ${list}` },
    ]);
  }
}

function describeWidget(index: number, tag: string): string {
  return `widget ${index} (flow "${tag}")`;
}

/**
 * Creates the board, the flows its widgets name that do not exist yet, and the widgets, in one
 * transaction: any refusal leaves nothing behind. Flows that exist are reused as they are (their
 * data is not overwritten). Returns the new board's id.
 */
export async function runImport(db: Database, input: BoardImport, now: Date): Promise<string> {
  const { widgets: imported, ...settings } = input;
  try {
    return await db.transaction(async (tx) => {
      const boards = new BoardRepository(tx);
      const widgets = new WidgetRepository(tx);
      const flowRepository = new FlowRepository(tx);
      // An export carries the channel ids of the service it came from: keep those that exist here.
      const missing = new Set(await boards.missingChannels(settings.channel_ids));
      const channelIds = channelsOrDefault(settings.channel_ids.filter((id) => !missing.has(id)));
      const board = await boards.create({ ...settings, channel_ids: channelIds }, now);
      // Two widgets may show the same flow: the second finds the one the first made.
      const flows = new Map<string, Flow>();
      for (const [index, widget] of imported.entries()) {
        const { tag } = widget.flow;
        let flow = flows.get(tag) ?? (await flowRepository.getByTag(tag));
        if (flow && flow.variant !== widget.variant) {
          throw HttpError.conflict(
            `${describeWidget(index, tag)} is a ${widget.variant} but the flow "${tag}" is a ${flow.variant}`,
            [
              {
                path: `body.widgets.${index}.variant`,
                message: `must be "${flow.variant}", the flow's variant`,
              },
            ],
          );
        }
        if (!flow) {
          const parsed = parseMetrics(widget.variant, widget.flow.data);
          if (!parsed.success) {
            const details = toFieldIssues(parsed.error).map((issue) => ({
              path: `body.widgets.${index}.flow.data`,
              message: issue.path ? `${issue.path}: ${issue.message}` : issue.message,
            }));
            throw HttpError.badRequest(
              `${describeWidget(index, tag)}: its data does not fit a ${widget.variant}`,
              details,
            );
          }
          flow = await flowRepository.create(
            {
              type: 'default',
              variant: widget.variant,
              tag,
              enabled: true,
              channel_id: channelIds[0] ?? DEFAULT_CHANNEL_ID,
              source: null,
              parameters: null,
              created_at: now,
            },
            parsed.data,
          );
        }
        flows.set(tag, flow);
        await widgets.create({
          variant: widget.variant,
          board_id: board.id,
          flow_id: flow.id,
          column: widget.column,
          row: widget.row,
          width: widget.width,
          height: widget.height,
          in_board_index: widget.in_board_index,
          background: widget.background,
        });
      }
      return board.id;
    });
  } catch (error) {
    // Another request made one of the flows meanwhile: the same answer as a tag taken.
    if (isUniqueViolation(error)) {
      throw HttpError.conflict('a flow this import names was created meanwhile; import again to reuse it');
    }
    throw error;
  }
}
