import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../src/shared/common';
import { playlistCreateSchema, playlistSchema, playlistUpdateSchema } from '../../src/shared/playlist';
import { createPlaylist, deletePlaylist, updatePlaylist } from '../actions/playlists';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';
import { visibilityOf } from '../http/device-scope';
import { PlaylistRepository } from '../repositories/playlists';

const idParams = z.object({ id: idSchema });

export function playlistRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const playlists = new PlaylistRepository(ctx.db);

  return async (app) => {
    app.get(
      '/playlists',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['playlists'],
          summary: 'Lists all playlists, oldest first',
          response: { 200: z.array(playlistSchema) },
        },
      },
      async (request) => {
        const visible = await visibilityOf(ctx.db, request);
        return (await playlists.list()).filter((playlist) => visible.playlist(playlist.id));
      },
    );

    app.get(
      '/playlists/:id',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['playlists'],
          summary: 'Returns one playlist',
          params: idParams,
          response: { 200: playlistSchema },
        },
      },
      async (request) => {
        const visible = await visibilityOf(ctx.db, request);
        const playlist = visible.playlist(request.params.id) ? await playlists.find(request.params.id) : null;
        if (!playlist) throw notFound(`playlist ${request.params.id}`);
        return playlist;
      },
    );

    app.post(
      '/playlists',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['playlists'],
          summary: 'Creates a playlist; board items must name existing boards and channels',
          body: playlistCreateSchema,
          response: { 201: playlistSchema },
        },
      },
      async (request, reply) => reply.status(201).send(await createPlaylist(ctx, request.body)),
    );

    app.patch(
      '/playlists/:id',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['playlists'],
          summary: 'Updates a playlist; `items`, when given, replace all its items',
          params: idParams,
          body: playlistUpdateSchema,
          response: { 200: playlistSchema },
        },
      },
      async (request) => {
        const playlist = await updatePlaylist(ctx, request.params.id, request.body);
        if (!playlist) throw notFound(`playlist ${request.params.id}`);
        return playlist;
      },
    );

    app.delete(
      '/playlists/:id',
      {
        config: { permission: 'delete' },
        schema: {
          tags: ['playlists'],
          summary: 'Deletes a playlist; the devices that had it are left without one',
          params: idParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        if (!(await deletePlaylist(ctx, request.params.id))) throw notFound(`playlist ${request.params.id}`);
        return reply.status(204).send(null);
      },
    );
  };
}
