import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../src/shared/common';
import {
  flatWidgetCreateSchema,
  flatWidgetSchema,
  flatWidgetUpdateSchema,
  widgetCreateSchema,
  widgetSchema,
  widgetUpdateSchema,
  withFlowIds,
} from '../../src/shared/widget';
import { createWidget, createWidgetWithNewFlow, deleteWidget, updateWidget } from '../actions/widgets';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';
import { noQuery, withoutPathId } from '../http/strict-requests';
import { BoardRepository } from '../repositories/boards';
import { WidgetRepository } from '../repositories/widgets';

const boardParams = z.object({ id: idSchema });
const widgetParams = z.object({ id: idSchema, widget_id: idSchema });
const flatParams = z.object({ id: idSchema });

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
          querystring: noQuery,
          response: { 200: z.array(widgetSchema) },
        },
      },
      async (request) => {
        if (!(await boards.get(request.params.id))) {
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

    // The original product's flat widget routes (its Go library and Node client call them): the
    // same actions as above, the board found from the widget, and `flow_ids` beside `flow_id`.
    const flatWidget = async (id: string) => {
      const widget = await widgets.find(id);
      if (!widget) throw notFound(`widget ${id}`);
      return widget;
    };

    app.get(
      '/widgets',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['widgets'],
          summary:
            "Lists every board's widgets, board by board, each in drawing order (the original's route)",
          querystring: noQuery,
          response: { 200: z.array(flatWidgetSchema) },
        },
      },
      async () => (await widgets.listAll()).map(withFlowIds),
    );

    app.get(
      '/widgets/:id',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['widgets'],
          summary: 'Returns one widget by id (the original’s route)',
          params: flatParams,
          querystring: noQuery,
          response: { 200: flatWidgetSchema },
        },
      },
      async (request) => {
        const widget = await widgets.find(request.params.id);
        if (!widget) throw notFound(`widget ${request.params.id}`);
        return withFlowIds(widget);
      },
    );

    app.post(
      '/widgets',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['widgets'],
          summary:
            'Places a widget on the board named by board_id, as POST /boards/:id/widgets does; without a flow, on a new flow of its variant (the original’s route)',
          body: flatWidgetCreateSchema,
          response: { 201: flatWidgetSchema },
        },
      },
      async (request, reply) => {
        const { board_id: boardId, widget, new_flow: variant } = request.body;
        const created = variant
          ? await createWidgetWithNewFlow(ctx, boardId, variant, widget)
          : await createWidget(ctx, boardId, widget);
        return reply.status(201).send(withFlowIds(created));
      },
    );

    app.patch(
      '/widgets/:id',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['widgets'],
          summary: 'Moves, resizes or restacks a widget, as PATCH /boards/:id/widgets/:widget_id does',
          params: flatParams,
          body: flatWidgetUpdateSchema,
          response: { 200: flatWidgetSchema },
        },
      },
      async (request) => {
        const { id } = request.params;
        const patch = withoutPathId(request.body, id);
        const widget = await updateWidget(ctx, (await flatWidget(id)).board_id, id, patch);
        if (!widget) throw notFound(`widget ${id}`);
        return withFlowIds(widget);
      },
    );

    app.delete(
      '/widgets/:id',
      {
        config: { permission: 'delete' },
        schema: {
          tags: ['widgets'],
          summary:
            'Takes a widget off its board (its flow stays), as DELETE /boards/:id/widgets/:widget_id does',
          params: flatParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        if (!(await deleteWidget(ctx, (await flatWidget(id)).board_id, id))) throw notFound(`widget ${id}`);
        return reply.status(204).send(null);
      },
    );
  };
}
