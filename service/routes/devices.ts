import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tagSchema } from '../../src/shared/common';
import {
  deviceCreateSchema,
  deviceOverviewSchema,
  deviceSchema,
  deviceUpdateSchema,
  heartbeatSchema,
} from '../../src/shared/device';
import { deviceStatusSchema } from '../../src/shared/device-status';
import { playlistSchema } from '../../src/shared/playlist';
import {
  createDevice,
  deleteDevice,
  recordGoingOffline,
  recordHeartbeat,
  updateDevice,
} from '../actions/devices';
import { setsAnySetting } from '../actions/screen-settings';
import type { ServiceContext } from '../context';
import { DomainError, notFound } from '../domain/errors';
import { refuseDeviceBound } from '../http/device-scope';
import { sendPages } from '../http/paged-answer';
import { deviceOverviewPages, devicePages } from '../repositories/device-overview';
import { DeviceRepository } from '../repositories/devices';
import { PlaylistRepository } from '../repositories/playlists';
import { ScreenSettingsRepository } from '../repositories/screen-settings';

const tagParams = z.object({ tag: tagSchema });

const deviceNotFound = (tag: string) => notFound(`device ${tag}`);

export function deviceRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const devices = new DeviceRepository(ctx.db);
  const playlists = new PlaylistRepository(ctx.db);
  const screenSettings = new ScreenSettingsRepository(ctx.db);

  return async (app) => {
    app.get(
      '/devices',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['devices'],
          summary:
            "Lists all devices, by tag; include=status adds each one's summary for the console, what it should show and whether it does (read 250 at a time)",
          querystring: z.object({ include: z.literal('status').optional() }),
          // The summary first: a plain device lacks its fields, so the union cannot strip them.
          response: { 200: z.union([z.array(deviceOverviewSchema), z.array(deviceSchema)]) },
        },
      },
      async (request, reply) =>
        request.query.include === 'status'
          ? sendPages(reply, z.array(deviceOverviewSchema), deviceOverviewPages(ctx.db, ctx.clock.now()))
          : sendPages(reply, z.array(deviceSchema), devicePages(ctx.db)),
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
        if (!device) throw deviceNotFound(request.params.tag);
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
        refuseDeviceBound(request, 'create devices');
        return reply.status(201).send(await createDevice(ctx, request.body));
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
        // What a screen plays, when and how, is the operator's choice, not the screen's.
        if (request.body.playlist_id !== undefined) refuseDeviceBound(request, 'choose its playlist');
        if (request.body.group_id !== undefined || setsAnySetting(request.body)) {
          refuseDeviceBound(request, 'choose its group, schedule, power, rotation or time zone');
        }
        const device = await updateDevice(ctx, request.params.tag, request.body);
        if (!device) throw deviceNotFound(request.params.tag);
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
        if (!(await deleteDevice(ctx, request.params.tag))) throw deviceNotFound(request.params.tag);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/devices/:tag/heartbeat',
      {
        config: { permission: 'devices:write', audit: false },
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
        if (!device) throw deviceNotFound(request.params.tag);
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
        if (diagnostics === undefined) throw deviceNotFound(tag);
        if (diagnostics === null) {
          throw new DomainError('not_found', `device ${tag} has not sent a heartbeat yet`);
        }
        return deviceStatusSchema.parse(diagnostics);
      },
    );

    app.post(
      '/devices/:tag/offline',
      {
        config: { permission: 'devices:write', audit: false },
        schema: {
          tags: ['devices'],
          summary: 'The device says it is going offline (it quits)',
          params: tagParams,
          response: { 200: deviceSchema },
        },
      },
      async (request) => {
        const device = await recordGoingOffline(ctx, request.params.tag);
        if (!device) throw deviceNotFound(request.params.tag);
        return device;
      },
    );

    app.get(
      '/devices/:tag/playlist',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['devices'],
          summary: "Returns the device's playlist: its own, else its group's (its schedule aside)",
          params: tagParams,
          response: { 200: playlistSchema },
        },
      },
      async (request) => {
        const { tag } = request.params;
        const read = await screenSettings.ofDevice(tag);
        if (!read) throw deviceNotFound(tag);
        const id = read.settings.playlist_id;
        const playlist = id ? await playlists.find(id) : null;
        if (!playlist) throw new DomainError('not_found', `device ${tag} has no playlist`);
        return playlist;
      },
    );
  };
}
