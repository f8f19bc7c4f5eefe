import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema, tagSchema } from '../../src/shared/common';
import {
  deviceReleasesSchema,
  releaseKindSchema,
  releasePinSchema,
  rolloutCreateSchema,
  rolloutSchema,
  rolloutUpdateSchema,
  type Rollout,
} from '../../src/shared/release';
import { changeRollout, createRollout, pinRelease, rollBack, unpinRelease } from '../actions/rollouts';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';
import { refuseDeviceBound } from '../http/device-scope';
import { ReleaseOffersReader, rolloutsWithProgress } from '../repositories/release-offers';
import { deviceReleasesOf } from './releases-device';

const idParams = z.object({ id: idSchema });
const pinParams = z.object({ tag: tagSchema, kind: releaseKindSchema });

/** Rollouts of releases and pins of screens (docs/updates.md). */
export function rolloutRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const rolloutOf = async (id: string): Promise<Rollout> => {
    const rollout = (await rolloutsWithProgress(ctx.db)).find((one) => one.id === id);
    if (!rollout) throw notFound(`rollout ${id}`);
    return rollout;
  };

  return async (app) => {
    app.post(
      '/rollouts',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['releases'],
          summary:
            'Rolls a release out to screen groups (group_ids) or to a percentage of the screens (the same screens first, whatever the release); the newest rollout reaching a screen applies',
          body: rolloutCreateSchema,
          response: { 201: rolloutSchema },
        },
      },
      async (request, reply) => {
        refuseDeviceBound(request, 'roll releases out');
        const id = await createRollout(ctx, request.body);
        return reply.status(201).send(await rolloutOf(id));
      },
    );

    app.get(
      '/rollouts',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['releases'],
          summary:
            'Lists the rollouts, newest first, each with its progress: screens it is in force on, on its version, failed, pending',
          response: { 200: z.array(rolloutSchema) },
        },
      },
      async (request) => {
        const all = await rolloutsWithProgress(ctx.db);
        // A token bound to a device sees the rollouts in force on its device only.
        const tag = request.token?.device_tag;
        if (!tag) return all;
        const [one] = await new ReleaseOffersReader(ctx.db).sources(tag);
        const own = [one?.sources.shell?.rollout_id, one?.sources.web?.rollout_id];
        return all.filter((rollout) => own.includes(rollout.id));
      },
    );

    app.patch(
      '/rollouts/:id',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['releases'],
          summary: "Changes a percentage rollout's share; raising it keeps the screens it had",
          params: idParams,
          body: rolloutUpdateSchema,
          response: { 200: rolloutSchema },
        },
      },
      async (request) => {
        refuseDeviceBound(request, 'change rollouts');
        const { id } = request.params;
        if (!(await changeRollout(ctx, id, request.body.percentage))) throw notFound(`rollout ${id}`);
        return rolloutOf(id);
      },
    );

    app.post(
      '/rollouts/:id/rollback',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['releases'],
          summary:
            'Rolls a rollout back: the screens it reached are offered what they were before it (an older rollout, or nothing)',
          params: idParams,
          response: { 200: rolloutSchema },
        },
      },
      async (request) => {
        refuseDeviceBound(request, 'roll back rollouts');
        const { id } = request.params;
        if (!(await rollBack(ctx, id))) throw notFound(`rollout ${id}`);
        return rolloutOf(id);
      },
    );

    app.put(
      '/devices/:tag/release-pins/:kind',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['releases'],
          summary: 'Pins a screen to a release of the kind, whatever the rollouts say',
          params: pinParams,
          body: releasePinSchema,
          response: { 200: deviceReleasesSchema },
        },
      },
      async (request) => {
        refuseDeviceBound(request, 'pin releases');
        const { tag, kind } = request.params;
        if (!(await pinRelease(ctx, tag, kind, request.body.release_id))) throw notFound(`device ${tag}`);
        return deviceReleasesOf(ctx.db, tag);
      },
    );

    app.delete(
      '/devices/:tag/release-pins/:kind',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['releases'],
          summary: 'Unpins a screen: the rollouts decide again what it is offered',
          params: pinParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        refuseDeviceBound(request, 'unpin releases');
        const { tag, kind } = request.params;
        if (!(await unpinRelease(ctx, tag, kind))) throw notFound(`pin of ${kind} on device ${tag}`);
        return reply.status(204).send(null);
      },
    );
  };
}
