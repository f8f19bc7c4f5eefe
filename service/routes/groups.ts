import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../src/shared/common';
import { deviceSchema } from '../../src/shared/device';
import { groupCreateSchema, groupSchema, groupUpdateSchema } from '../../src/shared/group';
import { createGroup, deleteGroup, updateGroup } from '../actions/groups';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';
import { DeviceRepository } from '../repositories/devices';
import { GroupRepository } from '../repositories/groups';

const idParams = z.object({ id: idSchema });

const groupNotFound = (id: string) => notFound(`group ${id}`);

export function groupRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const groups = new GroupRepository(ctx.db);
  const devices = new DeviceRepository(ctx.db);

  /**
   * A token bound to a device sees its device's group only (docs/api.md, device-bound tokens);
   * undefined: every group.
   */
  async function visibleGroup(request: FastifyRequest): Promise<string | null | undefined> {
    const bound = request.token?.device_tag;
    if (!bound) return undefined;
    return (await devices.findByTag(bound))?.group_id ?? null;
  }

  return async (app) => {
    app.get(
      '/groups',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['groups'],
          summary: 'Lists all groups of screens, by name',
          response: { 200: z.array(groupSchema) },
        },
      },
      async (request) => {
        const visible = await visibleGroup(request);
        return (await groups.list()).filter((group) => visible === undefined || group.id === visible);
      },
    );

    app.get(
      '/groups/:id',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['groups'],
          summary: 'Returns one group of screens',
          params: idParams,
          response: { 200: groupSchema },
        },
      },
      async (request) => {
        const { id } = request.params;
        const visible = await visibleGroup(request);
        const group = visible === undefined || visible === id ? await groups.find(id) : null;
        if (!group) throw groupNotFound(id);
        return group;
      },
    );

    app.get(
      '/groups/:id/devices',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['groups'],
          summary: 'Lists the screens of a group, by tag',
          params: idParams,
          response: { 200: z.array(deviceSchema) },
        },
      },
      async (request) => {
        const { id } = request.params;
        const visible = await visibleGroup(request);
        if ((visible !== undefined && visible !== id) || !(await groups.find(id))) throw groupNotFound(id);
        const bound = request.token?.device_tag;
        return (await devices.inGroup(id)).filter((device) => !bound || device.tag === bound);
      },
    );

    app.post(
      '/groups',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['groups'],
          summary:
            'Creates a group of screens; its name must be unused, its schedule without overlaps, its playlists existing',
          body: groupCreateSchema,
          response: { 201: groupSchema },
        },
      },
      async (request, reply) => reply.status(201).send(await createGroup(ctx, request.body)),
    );

    app.patch(
      '/groups/:id',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['groups'],
          summary:
            'Updates a group; a setting null unsets it, and its screens are told of any setting changed',
          params: idParams,
          body: groupUpdateSchema,
          response: { 200: groupSchema },
        },
      },
      async (request) => {
        const group = await updateGroup(ctx, request.params.id, request.body);
        if (!group) throw groupNotFound(request.params.id);
        return group;
      },
    );

    app.delete(
      '/groups/:id',
      {
        config: { permission: 'delete' },
        schema: {
          tags: ['groups'],
          summary: 'Deletes a group; its screens are left in none',
          params: idParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        if (!(await deleteGroup(ctx, request.params.id))) throw groupNotFound(request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
