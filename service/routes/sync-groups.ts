import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema, tagSchema } from '../../src/shared/common';
import {
  syncGroupCreateSchema,
  syncGroupSchema,
  syncGroupUpdateSchema,
  syncMemberPutSchema,
  syncMemberSchema,
} from '../../src/shared/sync';
import {
  createSyncGroup,
  deleteSyncGroup,
  placeScreen,
  removeScreen,
  updateSyncGroup,
} from '../actions/sync-groups';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';
import { HttpError } from '../http/errors';
import { resourceRoutes } from '../http/resource-routes';
import { DeviceRepository } from '../repositories/devices';
import { SyncGroupRepository } from '../repositories/sync-groups';
import { currentGroups, withGroups } from '../visibility/groups';

const idParams = z.object({ id: idSchema });
const memberParams = z.object({ id: idSchema, tag: tagSchema });

/** Sync groups and walls (docs/api/sync-groups.md, docs/sync.md). */
export function syncGroupRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const groups = new SyncGroupRepository(ctx.db);
  const devices = new DeviceRepository(ctx.db);

  /**
   * A person kept to some screen groups sees a sync group's screens of those groups only, and
   * changes a sync group only while every screen in it is one of theirs (403 otherwise): a wall
   * spanning another group's screens is not theirs to rearrange.
   */
  async function checkKept(id: string, tag?: string): Promise<void> {
    if (!currentGroups()?.length) return;
    // Another group's screen is not found, as on every route that names one.
    if (tag !== undefined && !(await devices.findByTag(tag))) throw notFound(`device ${tag}`);
    const theirs = (await groups.members(id)).length;
    const all = (await withGroups([], () => groups.members(id))).length;
    if (all > theirs) {
      throw new HttpError(
        403,
        'forbidden',
        'a person kept to some screen groups may not change a sync group holding screens of other groups',
      );
    }
  }

  return async (app) => {
    resourceRoutes(app, {
      path: '/sync-groups',
      tag: 'sync-groups',
      noun: 'sync group',
      params: idParams,
      item: syncGroupSchema,
      list: {
        summary: 'Lists the sync groups (screens sharing one timeline, or a wall), by name',
        permission: 'read',
        read: () => groups.list(),
      },
      get: { summary: 'Returns one sync group', permission: 'read', read: (id) => groups.find(id) },
      create: {
        summary: 'Creates a sync group, a wall when it names one; its timeline starts now',
        permission: 'write',
        body: syncGroupCreateSchema,
        run: (body) => createSyncGroup(ctx, body),
      },
      update: {
        summary:
          'Updates a sync group: its name, its wall (null: none) or, with `restart`, its timeline from now; its screens are told',
        permission: 'write',
        body: syncGroupUpdateSchema,
        run: async (id, body) => {
          await checkKept(id);
          return updateSyncGroup(ctx, id, body);
        },
      },
      delete: {
        summary: 'Deletes a sync group; its screens play on their own again',
        permission: 'delete',
        run: async (id) => {
          await checkKept(id);
          return deleteSyncGroup(ctx, id);
        },
      },
    });

    app.get(
      '/sync-groups/:id/screens',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['sync-groups'],
          summary: 'Lists the screens of a sync group and their cells of the wall, by tag',
          params: idParams,
          response: { 200: z.array(syncMemberSchema) },
        },
      },
      async (request) => {
        const { id } = request.params;
        if (!(await groups.find(id))) throw notFound(`sync group ${id}`);
        return groups.members(id);
      },
    );

    app.put(
      '/sync-groups/:id/screens/:tag',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['sync-groups'],
          summary:
            "Puts a screen in the sync group (out of any other), at its cell of the wall (`column`, `row` from 0; null in a group without a wall); answers the group's screens",
          params: memberParams,
          body: syncMemberPutSchema,
          response: { 200: z.array(syncMemberSchema) },
        },
      },
      async (request) => {
        await checkKept(request.params.id, request.params.tag);
        return placeScreen(ctx, request.params.id, request.params.tag, request.body);
      },
    );

    app.delete(
      '/sync-groups/:id/screens/:tag',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['sync-groups'],
          summary: 'Takes a screen out of the sync group: it plays on its own again',
          params: memberParams,
        },
      },
      async (request, reply) => {
        await checkKept(request.params.id, request.params.tag);
        await removeScreen(ctx, request.params.id, request.params.tag);
        return reply.code(204).send();
      },
    );
  };
}
