import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { boardCreateSchema, boardSchema, boardUpdateSchema, type Board } from '../../src/shared/board';
import { boardExportSchema, boardImportSchema } from '../../src/shared/board-export';
import { idSchema } from '../../src/shared/common';
import type { FieldIssue } from '../../src/shared/issues';
import { placementProblem } from '../../src/shared/widget';
import { buildExport, channelsOrDefault, checkChannels, runImport } from '../boards/export';
import type { ServiceContext } from '../context';
import { HttpError } from '../http/errors';
import { rooms } from '../realtime/rooms';
import { BoardRepository } from '../repositories/boards';
import { WidgetRepository } from '../repositories/widgets';

const boardParams = z.object({ id: idSchema });

/** The answer to an import: the new board's export, with the id it was given. */
const importedBoardSchema = z.intersection(z.object({ id: idSchema }), boardExportSchema);

export function boardRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const boards = new BoardRepository(ctx.db);
  const widgets = new WidgetRepository(ctx.db);

  async function boardOr404(id: string): Promise<Board> {
    const board = await boards.get(id);
    if (!board) throw HttpError.notFound(`board ${id}`);
    return board;
  }

  /** A smaller grid must still hold every widget of the board. */
  async function checkGrid(board: Board): Promise<void> {
    const details: FieldIssue[] = [];
    for (const widget of await widgets.listByBoard(board.id)) {
      const problem = placementProblem(widget, board);
      if (!problem) continue;
      const path = widget.column + widget.width > board.columns ? 'body.columns' : 'body.rows';
      details.push({ path, message: `would leave widget ${widget.id} off the grid: ${problem}` });
    }
    const first = details[0];
    if (first) throw HttpError.badRequest(first.message, details);
  }

  return async (app) => {
    app.get(
      '/boards',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['boards'],
          summary: 'Lists all boards of the account, oldest first',
          response: { 200: z.array(boardSchema) },
        },
      },
      async () => boards.list(),
    );

    app.get(
      '/boards/:id',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['boards'],
          summary: 'Returns one board',
          params: boardParams,
          response: { 200: boardSchema },
        },
      },
      async (request) => boardOr404(request.params.id),
    );

    app.get(
      '/boards/:id/export',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['boards'],
          summary:
            "Returns the board's settings and its widgets with their flows' tag, data and errored flag",
          params: boardParams,
          response: { 200: boardExportSchema },
        },
      },
      async (request) => {
        const exported = await buildExport(ctx.db, request.params.id);
        if (!exported) throw HttpError.notFound(`board ${request.params.id}`);
        return exported;
      },
    );

    app.post(
      '/boards',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['boards'],
          summary: 'Creates a board; settings not given take their defaults',
          body: boardCreateSchema,
          response: { 201: boardSchema },
        },
      },
      async (request, reply) => {
        await checkChannels(boards, request.body.channel_ids);
        const board = await boards.create(
          { ...request.body, channel_ids: channelsOrDefault(request.body.channel_ids) },
          ctx.clock.now(),
        );
        return reply.status(201).send(board);
      },
    );

    app.post(
      '/boards/import',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['boards'],
          summary:
            'Creates a board and its widgets from an export (ours or the original product’s), making the flows that do not exist',
          body: boardImportSchema,
          response: { 201: importedBoardSchema },
        },
      },
      async (request, reply) => {
        const id = await runImport(ctx.db, request.body, ctx.clock.now());
        const exported = await buildExport(ctx.db, id);
        if (!exported) throw HttpError.notFound(`board ${id}`);
        return reply.status(201).send({ id, ...exported });
      },
    );

    app.patch(
      '/boards/:id',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['boards'],
          summary: 'Updates a board; a smaller grid must still hold every widget',
          params: boardParams,
          body: boardUpdateSchema,
          response: { 200: boardSchema },
        },
      },
      async (request) => {
        const current = await boardOr404(request.params.id);
        const patch = request.body;
        if (Object.keys(patch).length === 0) return current;
        if (patch.channel_ids) await checkChannels(boards, patch.channel_ids);
        const next: Board = {
          ...current,
          ...patch,
          channel_ids: patch.channel_ids ? channelsOrDefault(patch.channel_ids) : current.channel_ids,
        };
        if (next.columns < current.columns || next.rows < current.rows) await checkGrid(next);
        const updated = await ctx.events.transaction(async (tx, emit) => {
          const board = await new BoardRepository(tx).replace(next, ctx.clock.now());
          if (board) emit({ type: 'board.changed', board_id: board.id }, [rooms.board(board.id)]);
          return board;
        });
        if (!updated) throw HttpError.notFound(`board ${request.params.id}`);
        return updated;
      },
    );

    app.delete(
      '/boards/:id',
      {
        config: { permission: 'delete' },
        schema: {
          tags: ['boards'],
          summary: 'Deletes a board with its widgets, and takes it out of every playlist',
          params: boardParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const now = ctx.clock.now();
        await ctx.events.transaction(async (tx, emit) => {
          const repository = new BoardRepository(tx);
          const changed = await repository.removeFromPlaylists(id, now);
          if (!(await repository.delete(id))) throw HttpError.notFound(`board ${id}`);
          for (const playlistId of changed) {
            emit({ type: 'playlist.changed', playlist_id: playlistId }, [rooms.playlist(playlistId)]);
          }
          emit({ type: 'board.changed', board_id: id }, [rooms.board(id)]);
        });
        return reply.status(204).send(null);
      },
    );
  };
}
