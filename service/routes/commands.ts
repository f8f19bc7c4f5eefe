import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  commandCreateSchema,
  commandResultSchema,
  commandSchema,
  commandStatusSchema,
} from '../../src/shared/command';
import { idSchema, tagSchema } from '../../src/shared/common';
import { deviceNotFound, reportCommandResult, sendCommand } from '../actions/commands';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';
import { CommandRepository } from '../repositories/commands';
import { DeviceRepository } from '../repositories/devices';

const tagParams = z.object({ tag: tagSchema });
const commandParams = z.object({ tag: tagSchema, id: idSchema });

const COMMAND_LIST_MAX = 100;

const listQuery = z.object({
  /** Only commands with this status: `queued` is what a device that was away asks for. */
  status: commandStatusSchema.optional(),
  limit: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(COMMAND_LIST_MAX, `must be at most ${COMMAND_LIST_MAX}`)
    .default(COMMAND_LIST_MAX),
});

const commandNotFound = (tag: string, id: string) => notFound(`command ${id} of device ${tag}`);

/** Remote commands to a device (docs/api/commands.md). */
export function commandRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const commands = new CommandRepository(ctx.db);
  const devices = new DeviceRepository(ctx.db);

  return async (app) => {
    app.post(
      '/devices/:tag/commands',
      {
        config: { permission: 'devices:write', fullOnly: true },
        schema: {
          tags: ['commands'],
          summary: 'Sends the device a command: reload, restart, identify or screenshot',
          description:
            'Queued, and pushed to the device at once when it is connected; a device away gets it when it is back. It expires (fails) 1 h after it was sent.',
          params: tagParams,
          body: commandCreateSchema,
          response: { 202: commandSchema },
        },
      },
      async (request, reply) => {
        const { tag } = request.params;
        return reply.status(202).send(await sendCommand(ctx, tag, request.body.type));
      },
    );

    app.get(
      '/devices/:tag/commands',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['commands'],
          summary:
            "Lists the device's newest commands, oldest first; `status=queued`: those it has still to take",
          params: tagParams,
          querystring: listQuery,
          response: { 200: z.array(commandSchema) },
        },
      },
      async (request) => {
        const { tag } = request.params;
        if (!(await devices.findByTag(tag))) throw deviceNotFound(tag);
        return commands.list(tag, request.query.status, request.query.limit);
      },
    );

    app.get(
      '/devices/:tag/commands/:id',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['commands'],
          summary: 'Returns one command of the device: queued, delivered, done or failed (with a reason)',
          params: commandParams,
          response: { 200: commandSchema },
        },
      },
      async (request) => {
        const { tag, id } = request.params;
        const command = await commands.find(tag, id);
        if (!command) throw commandNotFound(tag, id);
        return command;
      },
    );

    app.post(
      '/devices/:tag/commands/:id/result',
      {
        config: { permission: 'devices:write', audit: false },
        schema: {
          tags: ['commands'],
          summary: 'The device reports a command delivered, done, or failed with a reason',
          params: commandParams,
          body: commandResultSchema,
          response: { 200: commandSchema },
        },
      },
      async (request) => {
        const { tag, id } = request.params;
        const command = await reportCommandResult(ctx, tag, id, request.body);
        if (!command) throw commandNotFound(tag, id);
        return command;
      },
    );
  };
}
