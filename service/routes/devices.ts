import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tagSchema, timestampSchema } from '../../src/shared/common';
import {
  deviceCreateSchema,
  deviceSchema,
  deviceUpdateSchema,
  heartbeatSchema,
} from '../../src/shared/device';
import { playlistSchema } from '../../src/shared/playlist';
import type { ServiceContext } from '../context';
import { isForeignKeyViolation, isUniqueViolation } from '../db/constraint-errors';
import { recordGoingOffline, recordHeartbeat, startPresenceSweeper } from '../devices/presence';
import { HttpError } from '../http/errors';
import type { RealtimeEventInput } from '../realtime/publisher';
import { rooms } from '../realtime/rooms';
import { DeviceRepository } from '../repositories/devices';
import { PlaylistRepository } from '../repositories/playlists';

const tagParams = z.object({ tag: tagSchema });

/** The last heartbeat as stored; fields a newer device adds are dropped, not refused. */
const deviceStatusSchema = z.object({ ...heartbeatSchema.shape, received_at: timestampSchema });

function unknownPlaylist(id: string): HttpError {
  return HttpError.badRequest(`playlist ${id} does not exist`, [
    { path: 'body.playlist_id', message: 'must name an existing playlist' },
  ]);
}

export function deviceRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const devices = new DeviceRepository(ctx.db);
  const playlists = new PlaylistRepository(ctx.db);

  const deviceChanged = (tag: string): RealtimeEventInput => ({ type: 'device.changed', device_tag: tag });

  async function checkPlaylist(id: string | null | undefined): Promise<void> {
    if (id && !(await playlists.exists(id))) throw unknownPlaylist(id);
  }

  return async (app) => {
    let stopSweeper: (() => Promise<void>) | null = null;
    app.addHook('onReady', async () => {
      stopSweeper = startPresenceSweeper(ctx, (error) =>
        app.log.error({ err: error }, 'presence sweep failed'),
      );
    });
    app.addHook('onClose', async () => {
      await stopSweeper?.();
      stopSweeper = null;
    });

    app.get(
      '/devices',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['devices'],
          summary: 'Lists all devices, by tag',
          response: { 200: z.array(deviceSchema) },
        },
      },
      async () => devices.list(),
    );

    app.get(
      '/devices/:tag',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['devices'],
          summary: 'Returns one device by tag',
          params: tagParams,
          response: { 200: deviceSchema },
        },
      },
      async (request) => {
        const device = await devices.findByTag(request.params.tag);
        if (!device) throw HttpError.notFound(`device ${request.params.tag}`);
        return device;
      },
    );

    app.post(
      '/devices',
      {
        config: { permission: 'devices:write' },
        schema: {
          tags: ['devices'],
          summary: 'Creates a device; its tag must be unused',
          body: deviceCreateSchema,
          response: { 201: deviceSchema },
        },
      },
      async (request, reply) => {
        const input = request.body;
        await checkPlaylist(input.playlist_id);
        try {
          return reply.status(201).send(await devices.create(input));
        } catch (error) {
          if (isUniqueViolation(error)) {
            throw HttpError.conflict(`a device with tag "${input.tag}" already exists`, [
              { path: 'body.tag', message: 'is already used by another device' },
            ]);
          }
          // The playlist was deleted between the check and the insert.
          if (isForeignKeyViolation(error) && input.playlist_id) throw unknownPlaylist(input.playlist_id);
          throw error;
        }
      },
    );

    app.patch(
      '/devices/:tag',
      {
        config: { permission: 'devices:write' },
        schema: {
          tags: ['devices'],
          summary: 'Updates a device; playlist_id null takes its playlist away',
          params: tagParams,
          body: deviceUpdateSchema,
          response: { 200: deviceSchema },
        },
      },
      async (request) => {
        const { tag } = request.params;
        const patch = request.body;
        await checkPlaylist(patch.playlist_id);
        let device;
        try {
          device = await ctx.events.transaction(async (tx, emit) => {
            const updated = await new DeviceRepository(tx).update(tag, patch);
            // An empty patch changes nothing, so the device need not hear of it.
            if (updated && Object.values(patch).some((value) => value !== undefined)) {
              emit(deviceChanged(tag), [rooms.device(tag)]);
            }
            return updated;
          });
        } catch (error) {
          if (isForeignKeyViolation(error) && patch.playlist_id) throw unknownPlaylist(patch.playlist_id);
          throw error;
        }
        if (!device) throw HttpError.notFound(`device ${tag}`);
        return device;
      },
    );

    app.delete(
      '/devices/:tag',
      {
        config: { permission: 'delete' },
        schema: {
          tags: ['devices'],
          summary: 'Deletes a device',
          params: tagParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const { tag } = request.params;
        const deleted = await ctx.events.transaction(async (tx, emit) => {
          const gone = await new DeviceRepository(tx).delete(tag);
          if (gone) emit(deviceChanged(tag), [rooms.device(tag)]);
          return gone;
        });
        if (!deleted) throw HttpError.notFound(`device ${tag}`);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/devices/:tag/heartbeat',
      {
        config: { permission: 'devices:write' },
        schema: {
          tags: ['devices'],
          summary: 'Records a heartbeat: the device is online, and its diagnostics are kept',
          params: tagParams,
          body: heartbeatSchema,
          response: { 200: deviceSchema },
        },
      },
      async (request) => {
        const device = await recordHeartbeat(ctx, request.params.tag, request.body, request.ip);
        if (!device) throw HttpError.notFound(`device ${request.params.tag}`);
        return device;
      },
    );

    app.get(
      '/devices/:tag/status',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['devices'],
          summary: "Returns the device's last heartbeat, with the time it was received",
          params: tagParams,
          response: { 200: deviceStatusSchema },
        },
      },
      async (request) => {
        const { tag } = request.params;
        const diagnostics = await devices.diagnostics(tag);
        if (diagnostics === undefined) throw HttpError.notFound(`device ${tag}`);
        if (diagnostics === null) {
          throw new HttpError(404, 'not_found', `device ${tag} has not sent a heartbeat yet`);
        }
        return deviceStatusSchema.parse(diagnostics);
      },
    );

    app.post(
      '/devices/:tag/offline',
      {
        config: { permission: 'devices:write' },
        schema: {
          tags: ['devices'],
          summary: 'The device says it is going offline (it quits)',
          params: tagParams,
          response: { 200: deviceSchema },
        },
      },
      async (request) => {
        const device = await recordGoingOffline(ctx, request.params.tag);
        if (!device) throw HttpError.notFound(`device ${request.params.tag}`);
        return device;
      },
    );

    app.get(
      '/devices/:tag/playlist',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['devices'],
          summary: "Returns the device's playlist",
          params: tagParams,
          response: { 200: playlistSchema },
        },
      },
      async (request) => {
        const { tag } = request.params;
        const device = await devices.findByTag(tag);
        if (!device) throw HttpError.notFound(`device ${tag}`);
        const playlist = device.playlist_id ? await playlists.find(device.playlist_id) : null;
        if (!playlist) throw new HttpError(404, 'not_found', `device ${tag} has no playlist`);
        return playlist;
      },
    );
  };
}
