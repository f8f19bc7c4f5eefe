import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../src/shared/common';
import { playlistCreateSchema, playlistSchema, playlistUpdateSchema } from '../../src/shared/playlist';
import { createPlaylist, deletePlaylist, updatePlaylist } from '../actions/playlists';
import type { ServiceContext } from '../context';
import { resourceRoutes } from '../http/resource-routes';
import { PlaylistRepository } from '../repositories/playlists';

const idParams = z.object({ id: idSchema });

export function playlistRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const playlists = new PlaylistRepository(ctx.db);

  return async (app) => {
    resourceRoutes(app, {
      path: '/playlists',
      tag: 'playlists',
      noun: 'playlist',
      params: idParams,
      item: playlistSchema,
      list: {
        summary: 'Lists all playlists, oldest first',
        permission: 'read',
        read: () => playlists.list(),
      },
      get: { summary: 'Returns one playlist', permission: 'read', read: (id) => playlists.find(id) },
      create: {
        summary: 'Creates a playlist; board items must name existing boards and channels',
        permission: 'write',
        body: playlistCreateSchema,
        run: (body) => createPlaylist(ctx, body),
      },
      update: {
        summary: 'Updates a playlist; `items`, when given, replace all its items',
        permission: 'write',
        body: playlistUpdateSchema,
        run: (id, body) => updatePlaylist(ctx, id, body),
      },
      delete: {
        summary: 'Deletes a playlist; the devices that had it are left without one',
        permission: 'delete',
        run: (id) => deletePlaylist(ctx, id),
      },
    });
  };
}
