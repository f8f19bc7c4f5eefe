import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { boardCreateSchema, boardSchema, boardUpdateSchema } from '../../src/shared/board';
import { boardExportSchema, boardImportSchema } from '../../src/shared/board-export';
import { idSchema } from '../../src/shared/common';
import { createBoard, deleteBoard, importBoard, updateBoard } from '../actions/boards';
import { buildExport } from '../boards/export';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';
import { visibilityOf } from '../http/device-scope';
import { BoardRepository } from '../repositories/boards';

const boardParams = z.object({ id: idSchema });

/** The answer to an import: the new board's export, with the id it was given. */
const importedBoardSchema = z.intersection(z.object({ id: idSchema }), boardExportSchema);

export function boardRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const boards = new BoardRepository(ctx.db);

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
      async (request) => {
        const visible = await visibilityOf(ctx.db, request);
        return (await boards.list()).filter((board) => visible.board(board.id));
      },
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
      async (request) => {
        const visible = await visibilityOf(ctx.db, request);
        const board = visible.board(request.params.id) ? await boards.get(request.params.id) : null;
        if (!board) throw notFound(`board ${request.params.id}`);
        return board;
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
          response: { 200: boardExportSchema },
        },
      },
      async (request) => {
        const visible = await visibilityOf(ctx.db, request);
        const exported = visible.board(request.params.id)
          ? await buildExport(ctx.db, request.params.id)
          : null;
        if (!exported) throw notFound(`board ${request.params.id}`);
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
      async (request, reply) => reply.status(201).send(await createBoard(ctx, request.body)),
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
        const id = await importBoard(ctx, request.body);
        const exported = await buildExport(ctx.db, id);
        if (!exported) throw notFound(`board ${id}`);
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
        const board = await updateBoard(ctx, request.params.id, request.body);
        if (!board) throw notFound(`board ${request.params.id}`);
        return board;
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
        await deleteBoard(ctx, request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
