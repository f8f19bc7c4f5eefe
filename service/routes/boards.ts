import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  boardCreateRequestSchema,
  boardListQuerySchema,
  boardPatchSchema,
  boardSchema,
} from '../../src/shared/board';
import { boardExportSchema, boardImportSchema } from '../../src/shared/board-export';
import { idSchema } from '../../src/shared/common';
import { flatWidgetSchema, withFlowIds } from '../../src/shared/widget';
import { createBoard, deleteBoard, importBoard, updateBoard } from '../actions/boards';
import { buildExport } from '../boards/export';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';
import { resourceRoutes } from '../http/resource-routes';
import { noQuery, withoutPathId } from '../http/strict-requests';
import { BoardRepository } from '../repositories/boards';
import { WidgetRepository } from '../repositories/widgets';

const boardParams = z.object({ id: idSchema });

/** The answer to an import: the new board's export, with the id it was given. */
const importedBoardSchema = z.intersection(z.object({ id: idSchema }), boardExportSchema);

/**
 * One board with its widgets, which the original product's `GetBoard` reads (and `boarddump`
 * exports), and `widget_background`, its name for `widget_color` ("" for the theme's).
 */
const boardWithWidgetsSchema = boardSchema.extend({
  widgets: z.array(flatWidgetSchema),
  widget_background: z.string(),
});

export function boardRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const boards = new BoardRepository(ctx.db);
  const widgets = new WidgetRepository(ctx.db);

  return async (app) => {
    app.get(
      '/boards',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['boards'],
          summary: 'Lists all boards of the account, oldest first; name= keeps those of exactly that name',
          querystring: boardListQuerySchema,
          response: { 200: z.array(boardSchema) },
        },
      },
      async (request) => {
        const { name } = request.query;
        return (await boards.list()).filter((board) => name === undefined || board.name === name);
      },
    );

    app.get(
      '/boards/:id',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['boards'],
          summary: 'Returns one board with its widgets in drawing order',
          params: boardParams,
          querystring: noQuery,
          response: { 200: boardWithWidgetsSchema },
        },
      },
      async (request) => {
        const board = await boards.get(request.params.id);
        if (!board) throw notFound(`board ${request.params.id}`);
        return {
          ...board,
          widgets: (await widgets.listByBoard(board.id)).map(withFlowIds),
          widget_background: board.widget_color ?? '',
        };
      },
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
          querystring: noQuery,
          response: { 200: boardExportSchema },
        },
      },
      async (request) => {
        const exported = await buildExport(ctx.db, request.params.id);
        if (!exported) throw notFound(`board ${request.params.id}`);
        return exported;
      },
    );

    resourceRoutes(app, {
      path: '/boards',
      tag: 'boards',
      noun: 'board',
      params: boardParams,
      item: boardSchema,
      create: {
        summary:
          'Creates a board; settings not given take their defaults (the original’s widget_background is widget_color)',
        permission: 'write',
        body: boardCreateRequestSchema,
        run: (body) => createBoard(ctx, body),
      },
      update: {
        summary: 'Updates a board; a smaller grid must still hold every widget',
        permission: 'write',
        body: boardPatchSchema,
        run: (id, body) => updateBoard(ctx, id, withoutPathId(body, id)),
      },
      delete: {
        summary: 'Deletes a board with its widgets, and takes it out of every playlist',
        permission: 'delete',
        run: async (id) => {
          // It refuses an unknown board itself, inside the transaction that edits the playlists.
          await deleteBoard(ctx, id);
          return true;
        },
      },
    });

    app.post(
      '/boards/import',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['boards'],
          summary:
            'Creates a board and its widgets from an export (ours or the original product’s), making the flows that do not exist, and a new flow for a widget without one',
          body: boardImportSchema,
          response: { 201: importedBoardSchema },
        },
      },
      async (request, reply) => {
        const id = await importBoard(ctx, request.body);
        const exported = await buildExport(ctx.db, id);
        if (!exported) throw notFound(`board ${id}`);
        return reply.status(201).send({ id, ...exported });
      },
    );
  };
}
