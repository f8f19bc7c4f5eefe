import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parseRange } from '../../src/shared/byte-range';
import { idSchema, tagSchema } from '../../src/shared/common';
import { deviceReleasesSchema, updateReportSchema, type DeviceReleases } from '../../src/shared/release';
import { recordUpdateReport } from '../actions/rollouts';
import type { ServiceContext } from '../context';
import type { Queryable } from '../db/database';
import { notFound } from '../domain/errors';
import type { MediaStorage } from '../media/storage';
import { ReleaseOffersReader } from '../repositories/release-offers';
import { ReleaseRepository } from '../repositories/releases';
import { RolloutRepository } from '../repositories/rollouts';

const tagParams = z.object({ tag: tagSchema });
const fileParams = z.object({ tag: tagSchema, release_id: idSchema, '*': z.string() });

/** A screen's releases as the console shows them; a 404 when there is no such screen. */
export async function deviceReleasesOf(db: Queryable, tag: string): Promise<DeviceReleases> {
  const reader = new ReleaseOffersReader(db);
  const [one] = await reader.sources(tag);
  const offered = await reader.offersOf(tag);
  if (!one || !offered) throw notFound(`device ${tag}`);
  const rollouts = new RolloutRepository(db);
  const pins = (await rollouts.pins(tag)).get(tag) ?? {};
  const reports = (await rollouts.reports(tag)).get(tag) ?? {};
  return {
    offered,
    pins: { shell: pins.shell ?? null, web: pins.web ?? null },
    reports: { shell: reports.shell ?? null, web: reports.web ?? null },
    app_version: one.app_version,
  };
}

/**
 * What screens call of releases (docs/updates.md): the files of the release they are offered,
 * under its `base_url`, and their update reports. A screen's token reaches its own device only
 * (the auth hook); a release the screen is not offered now is not found for it.
 */
export function releaseDeviceRoutes(ctx: ServiceContext, storage: MediaStorage): FastifyPluginAsyncZod {
  const offers = new ReleaseOffersReader(ctx.db);
  const releases = new ReleaseRepository(ctx.db);

  return async (app) => {
    app.get(
      '/devices/:tag/releases/:release_id/files/*',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['releases'],
          summary:
            "Returns a file of the release the device is offered (its offer's base_url + '/' + name): one byte range (206, or 416); the device checks its sha512",
          params: fileParams,
        },
      },
      async (request, reply) => {
        const { tag, release_id: releaseId } = request.params;
        const name = request.params['*'];
        const offered = await offers.offersOf(tag);
        if (!offered) throw notFound(`device ${tag}`);
        if (offered.shell?.release_id !== releaseId && offered.web?.release_id !== releaseId)
          throw notFound(`release ${releaseId} offered to device ${tag}`);
        const file = await releases.file(releaseId, name);
        if (!file) throw notFound(`file ${JSON.stringify(name)} of release ${releaseId}`);
        const etag = `"${file.sha256}"`;
        reply
          .header('etag', etag)
          .header('accept-ranges', 'bytes')
          // A release's files never change under its id.
          .header('cache-control', 'private, max-age=31536000, immutable')
          .header('x-content-type-options', 'nosniff')
          .type(name.endsWith('.yml') ? 'text/yaml; charset=utf-8' : 'application/octet-stream');
        if (request.headers['if-none-match'] === etag) return reply.status(304).send();
        const range = parseRange(request.headers.range, file.size);
        if (range === 'unsatisfiable')
          return reply
            .status(416)
            .header('content-range', `bytes */${file.size}`)
            .type('application/json')
            .send({
              error: {
                code: 'range_not_satisfiable',
                message: `the range ${request.headers.range} is outside the file's ${file.size} bytes`,
                details: [],
              },
            });
        const stream = await storage.read(file.sha256, file.size === 0 ? null : range);
        if (range === null) return reply.header('content-length', String(file.size)).send(stream);
        return reply
          .status(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
          .header('content-length', String(range.end - range.start + 1))
          .send(stream);
      },
    );

    app.post(
      '/devices/:tag/update-reports',
      {
        config: { permission: 'devices:write', audit: false },
        schema: {
          tags: ['releases'],
          summary:
            "Records the device's report of an update (downloading, installed, failed, rolled_back) as its last of the kind",
          params: tagParams,
          body: updateReportSchema,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const { tag } = request.params;
        if (!(await recordUpdateReport(ctx, tag, request.body))) throw notFound(`device ${tag}`);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/devices/:tag/releases',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['releases'],
          summary:
            'Returns what the device is offered of each kind, its pins, its last update reports and the shell version of its last heartbeat',
          params: tagParams,
          response: { 200: deviceReleasesSchema },
        },
      },
      async (request) => deviceReleasesOf(ctx.db, request.params.tag),
    );
  };
}
