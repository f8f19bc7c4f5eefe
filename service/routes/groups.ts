import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../src/shared/common';
import { deviceSchema } from '../../src/shared/device';
import { groupCreateSchema, groupSchema, groupUpdateSchema } from '../../src/shared/group';
import { createGroup, deleteGroup, updateGroup } from '../actions/groups';
import type { ServiceContext } from '../context';
import { resourceRoutes } from '../http/resource-routes';
import { notFound } from '../domain/errors';
import { DeviceRepository } from '../repositories/devices';
import { GroupRepository } from '../repositories/groups';

const idParams = z.object({ id: idSchema });

const groupNotFound = (id: string) => notFound(`group ${id}`);

export function groupRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const groups = new GroupRepository(ctx.db);
  const devices = new DeviceRepository(ctx.db);

  return async (app) => {
    resourceRoutes(app, {
      path: '/groups',
      tag: 'groups',
      noun: 'group',
      params: idParams,
      item: groupSchema,
      list: {
        summary: 'Lists all groups of screens, by name',
        permission: 'read',
        read: () => groups.list(),
      },
      get: { summary: 'Returns one group of screens', permission: 'read', read: (id) => groups.find(id) },
      create: {
        summary:
          'Creates a group of screens; its name must be unused, its schedule without overlaps, its playlists existing',
        permission: 'write',
        body: groupCreateSchema,
        run: (body) => createGroup(ctx, body),
      },
      update: {
        summary: 'Updates a group; a setting null unsets it, and its screens are told of any setting changed',
        permission: 'write',
        body: groupUpdateSchema,
        run: (id, body) => updateGroup(ctx, id, body),
      },
      delete: {
        summary: 'Deletes a group; its screens are left in none',
        permission: 'delete',
        run: (id) => deleteGroup(ctx, id),
      },
    });

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
        if (!(await groups.find(id))) throw groupNotFound(id);
        return devices.inGroup(id);
      },
    );
  };
}
