import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../src/shared/common';
import type { FieldIssue } from '../../src/shared/issues';
import {
  playlistCreateSchema,
  playlistSchema,
  playlistUpdateSchema,
  type PlaylistItem,
} from '../../src/shared/playlist';
import type { ServiceContext } from '../context';
import { HttpError } from '../http/errors';
import type { Emit } from '../realtime/publisher';
import { rooms } from '../realtime/rooms';
import { DeviceRepository } from '../repositories/devices';
import { PlaylistRepository } from '../repositories/playlists';

const idParams = z.object({ id: idSchema });

export function playlistRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const playlists = new PlaylistRepository(ctx.db);

  /** Board items must name an existing board, and their channel (when given) an existing channel. */
  async function checkItems(items: readonly PlaylistItem[]): Promise<void> {
    const boardItems = items.flatMap((item, index) => (item.type === 'board' ? [{ item, index }] : []));
    if (boardItems.length === 0) return;
    const boards = await playlists.existingBoards([...new Set(boardItems.map(({ item }) => item.board_id))]);
    const channels = await playlists.existingChannels([
      ...new Set(boardItems.flatMap(({ item }) => (item.channel_id ? [item.channel_id] : []))),
    ]);
    const issues: FieldIssue[] = [];
    for (const { item, index } of boardItems) {
      if (!boards.has(item.board_id)) {
        issues.push({
          path: `body.items.${index}.board_id`,
          message: `board ${item.board_id} does not exist`,
        });
      }
      if (item.channel_id && !channels.has(item.channel_id)) {
        issues.push({
          path: `body.items.${index}.channel_id`,
          message: `channel ${item.channel_id} does not exist`,
        });
      }
    }
    if (issues.length > 0) {
      throw HttpError.badRequest(
        `playlist items name boards or channels that do not exist: ${issues.map((i) => i.path).join(', ')}`,
        issues,
      );
    }
  }

  const playlistChanged = (emit: Emit, id: string) =>
    emit({ type: 'playlist.changed', playlist_id: id }, [rooms.playlist(id)]);

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
      async () => playlists.list(),
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
        const playlist = await playlists.find(request.params.id);
        if (!playlist) throw HttpError.notFound(`playlist ${request.params.id}`);
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
      async (request, reply) => {
        await checkItems(request.body.items);
        // No device can show it yet, so there is nobody to tell.
        return reply.status(201).send(await playlists.create(request.body, ctx.clock.now()));
      },
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
        const { id } = request.params;
        const patch = request.body;
        if (patch.name === undefined && patch.items === undefined) {
          const playlist = await playlists.find(id);
          if (!playlist) throw HttpError.notFound(`playlist ${id}`);
          return playlist;
        }
        if (patch.items) await checkItems(patch.items);
        const playlist = await ctx.events.transaction(async (tx, emit) => {
          const updated = await new PlaylistRepository(tx).update(id, patch, ctx.clock.now());
          if (updated) playlistChanged(emit, id);
          return updated;
        });
        if (!playlist) throw HttpError.notFound(`playlist ${id}`);
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
        const { id } = request.params;
        // The foreign key clears the devices' playlist_id, so who had it is asked first. The lock
        // keeps a device from being given the playlist between that question and the delete.
        const deleted = await ctx.events.transaction(async (tx, emit) => {
          const repository = new PlaylistRepository(tx);
          if (!(await repository.lockForDelete(id))) return false;
          const had = await new DeviceRepository(tx).tagsWithPlaylist(id);
          await repository.delete(id);
          for (const tag of had) emit({ type: 'device.changed', device_tag: tag }, [rooms.device(tag)]);
          playlistChanged(emit, id);
          return true;
        });
        if (!deleted) throw HttpError.notFound(`playlist ${id}`);
        return reply.status(204).send(null);
      },
    );
  };
}
