import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Board } from '../../src/shared/board';
import type { Flow } from '../../src/shared/flow';
import { idSchema } from '../../src/shared/common';
import {
  placementProblem,
  widgetCreateSchema,
  widgetSchema,
  widgetUpdateSchema,
  type GridPlacement,
  type WidgetCreate,
} from '../../src/shared/widget';
import type { ServiceContext } from '../context';
import { HttpError } from '../http/errors';
import type { Emit } from '../realtime/publisher';
import { rooms } from '../realtime/rooms';
import { BoardRepository } from '../repositories/boards';
import { FlowRepository } from '../repositories/flows';
import { WidgetRepository } from '../repositories/widgets';

const boardParams = z.object({ id: idSchema });
const widgetParams = z.object({ id: idSchema, widget_id: idSchema });

/** A 400 naming the side of the grid the widget overflows. */
function checkFits(widget: GridPlacement, board: Board): void {
  const problem = placementProblem(widget, board);
  if (!problem) return;
  const horizontal = widget.column + widget.width > board.columns;
  throw HttpError.badRequest(`the widget does not fit the board: ${problem}`, [
    { path: horizontal ? 'body.width' : 'body.height', message: problem },
  ]);
}

export function widgetRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const boards = new BoardRepository(ctx.db);
  const widgets = new WidgetRepository(ctx.db);
  const flows = new FlowRepository(ctx.db);

  async function boardOr404(id: string): Promise<Board> {
    const board = await boards.get(id);
    if (!board) throw HttpError.notFound(`board ${id}`);
    return board;
  }

  async function flowOf(body: WidgetCreate): Promise<Flow> {
    if (body.flow_id !== undefined) {
      const flow = await flows.get(body.flow_id);
      if (!flow) {
        throw HttpError.badRequest(`unknown flow ${body.flow_id}`, [
          { path: 'body.flow_id', message: 'names no flow' },
        ]);
      }
      return flow;
    }
    const flow = body.flow_tag === undefined ? null : await flows.getByTag(body.flow_tag);
    if (!flow) {
      throw HttpError.badRequest(`no flow has the tag "${body.flow_tag ?? ''}"`, [
        { path: 'body.flow_tag', message: 'names no flow' },
      ]);
    }
    return flow;
  }

  const changed = (emit: Emit, boardId: string) =>
    emit({ type: 'board.changed', board_id: boardId }, [rooms.board(boardId)]);

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
        await boardOr404(request.params.id);
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
      async (request, reply) => {
        const board = await boardOr404(request.params.id);
        const { body } = request;
        const flow = await flowOf(body);
        if (body.variant !== undefined && body.variant !== flow.variant) {
          throw HttpError.badRequest(
            `the widget is a ${body.variant} but the flow "${flow.tag}" is a ${flow.variant}`,
            [{ path: 'body.variant', message: `must be "${flow.variant}", the flow's variant` }],
          );
        }
        checkFits(body, board);
        const widget = await ctx.events.transaction(async (tx, emit) => {
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
          });
          changed(emit, board.id);
          return created;
        });
        return reply.status(201).send(widget);
      },
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
        const board = await boardOr404(id);
        const current = await widgets.get(id, widgetId);
        if (!current) throw HttpError.notFound(`widget ${widgetId} on board ${id}`);
        if (Object.keys(request.body).length === 0) return current;
        const next = { ...current, ...request.body };
        checkFits(next, board);
        const updated = await ctx.events.transaction(async (tx, emit) => {
          const replaced = await new WidgetRepository(tx).replace(next);
          if (replaced) changed(emit, id);
          return replaced;
        });
        if (!updated) throw HttpError.notFound(`widget ${widgetId} on board ${id}`);
        return updated;
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
        await boardOr404(id);
        const deleted = await ctx.events.transaction(async (tx, emit) => {
          const gone = await new WidgetRepository(tx).delete(id, widgetId);
          if (gone) changed(emit, id);
          return gone;
        });
        if (!deleted) throw HttpError.notFound(`widget ${widgetId} on board ${id}`);
        return reply.status(204).send(null);
      },
    );
  };
}
