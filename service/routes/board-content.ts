import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  boardContentSaveSchema,
  boardContentSchema,
  boardDuplicateSchema,
} from '../../src/shared/board-content';
import { idSchema } from '../../src/shared/common';
import { boardContent, duplicateBoard, saveBoardContent } from '../actions/board-content';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';

const boardParams = z.object({ id: idSchema });

/** The board editor's routes: a board with its widgets, read and saved whole, and duplicated. */
export function boardContentRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/boards/:id/content',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['boards'],
          summary: 'Returns a board and its widgets in drawing order, as the editor loads them',
          params: boardParams,
          response: { 200: boardContentSchema },
        },
      },
      async (request) => {
        const content = await boardContent(ctx, request.params.id);
        if (!content) throw notFound(`board ${request.params.id}`);
        return content;
      },
    );

    app.put(
      '/boards/:id/content',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['boards'],
          summary:
            "Replaces a board's settings and its whole widget list in one write; 409 unless updated_at is still the board's",
          params: boardParams,
          body: boardContentSaveSchema,
          response: { 200: boardContentSchema },
        },
      },
      async (request) => {
        const saved = await saveBoardContent(ctx, request.params.id, request.body);
        if (!saved) throw notFound(`board ${request.params.id}`);
        return saved;
      },
    );

    app.post(
      '/boards/:id/duplicate',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['boards'],
          summary: 'Creates a copy of a board with copies of its widgets, showing the same flows',
          params: boardParams,
          // No body at all is a copy with the default name, as `{}` is.
          body: boardDuplicateSchema.nullish(),
          response: { 201: boardContentSchema },
        },
      },
      async (request, reply) => {
        const copy = await duplicateBoard(ctx, request.params.id, request.body ?? {});
        if (!copy) throw notFound(`board ${request.params.id}`);
        return reply.status(201).send(copy);
      },
    );
  };
}
