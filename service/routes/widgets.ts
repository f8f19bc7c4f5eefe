import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../src/shared/common';
import { widgetCreateSchema, widgetSchema, widgetUpdateSchema } from '../../src/shared/widget';
import { createWidget, deleteWidget, updateWidget } from '../actions/widgets';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';
import { visibilityOf } from '../http/device-scope';
import { BoardRepository } from '../repositories/boards';
import { WidgetRepository } from '../repositories/widgets';

const boardParams = z.object({ id: idSchema });
const widgetParams = z.object({ id: idSchema, widget_id: idSchema });

const widgetNotFound = (boardId: string, widgetId: string) =>
  notFound(`widget ${widgetId} on board ${boardId}`);

export function widgetRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const boards = new BoardRepository(ctx.db);
  const widgets = new WidgetRepository(ctx.db);

  return async (app) => {
    app.get(
      '/boards/:id/widgets',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['widgets'],
          summary: 'Lists the widgets of a board in drawing order (lowest in_board_index first)',
          params: boardParams,
          response: { 200: z.array(widgetSchema) },
        },
      },
      async (request) => {
        const visible = await visibilityOf(ctx.db, request);
        if (!visible.board(request.params.id) || !(await boards.get(request.params.id))) {
          throw notFound(`board ${request.params.id}`);
        }
        return widgets.listByBoard(request.params.id);
      },
    );

    app.post(
      '/boards/:id/widgets',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['widgets'],
          summary: 'Places a widget showing an existing flow (by flow_id or flow_tag) on the board',
          params: boardParams,
          body: widgetCreateSchema,
          response: { 201: widgetSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createWidget(ctx, request.params.id, request.body)),
    );

    app.patch(
      '/boards/:id/widgets/:widget_id',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['widgets'],
          summary: 'Moves, resizes or restacks a widget; it must still fit the grid',
          params: widgetParams,
          body: widgetUpdateSchema,
          response: { 200: widgetSchema },
        },
      },
      async (request) => {
        const { id, widget_id: widgetId } = request.params;
        const widget = await updateWidget(ctx, id, widgetId, request.body);
        if (!widget) throw widgetNotFound(id, widgetId);
        return widget;
      },
    );

    app.delete(
      '/boards/:id/widgets/:widget_id',
      {
        config: { permission: 'delete' },
        schema: {
          tags: ['widgets'],
          summary: 'Takes a widget off its board (its flow stays)',
          params: widgetParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const { id, widget_id: widgetId } = request.params;
        if (!(await deleteWidget(ctx, id, widgetId))) throw widgetNotFound(id, widgetId);
        return reply.status(204).send(null);
      },
    );
  };
}
