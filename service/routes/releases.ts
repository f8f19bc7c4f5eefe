import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../src/shared/common';
import { releaseChannelSchema, releaseKindSchema, releaseSchema } from '../../src/shared/release';
import { deleteRelease, removeReceived, removeStaleUploads, uploadRelease } from '../actions/releases';
import { mediaRoom } from '../accounts/quotas';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';
import { refuseDeviceBound } from '../http/device-scope';
import { FileMediaStorage } from '../media/file-storage';
import { PostgresMediaStorage } from '../media/postgres-storage';
import type { MediaStorage } from '../media/storage';
import { ReleaseOffersReader } from '../repositories/release-offers';
import { ReleaseRepository } from '../repositories/releases';
import { releaseDeviceRoutes } from './releases-device';
import { rolloutRoutes } from './releases-rollouts';
import { receiveRelease, RELEASE_FILE_MAX, RELEASE_FILES_MAX, UploadRoom } from './releases-upload';

const idParams = z.object({ id: idSchema });
const listQuery = z.object({ kind: releaseKindSchema.optional(), channel: releaseChannelSchema.optional() });

/**
 * Player releases (docs/updates.md): uploads checked against their manifests, kept in the media
 * storage (once per content), rolled out and pinned (releases-rollouts.ts), and served to the
 * screens they are offered to (releases-device.ts).
 */
export function releaseRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const releases = new ReleaseRepository(ctx.db);
  const offers = new ReleaseOffersReader(ctx.db);

  /**
   * For a token bound to a device, the releases its device is offered, which is all it sees of
   * them (docs/api.md, device-bound tokens); null for any other caller.
   */
  const offeredToBound = async (request: FastifyRequest): Promise<Set<string> | null> => {
    const tag = request.token?.device_tag;
    if (!tag) return null;
    const [one] = await offers.sources(tag);
    return new Set(
      [one?.sources.shell?.release_id, one?.sources.web?.release_id].filter((id) => id !== undefined),
    );
  };

  return async (app) => {
    const storage: MediaStorage =
      ctx.db.kind === 'postgres'
        ? await PostgresMediaStorage.open(ctx.db, ctx.config.mediaDir)
        : await FileMediaStorage.open(ctx.db, ctx.config.mediaDir);
    app.addHook('onClose', () => storage.close());
    app.addHook('onReady', async () => {
      await removeStaleUploads(ctx.db, storage, ctx.clock.now());
    });
    await app.register(multipart, {
      // Each file's path in the release is its filename: busboy would keep its last part only.
      preservePath: true,
      limits: {
        files: RELEASE_FILES_MAX,
        fields: 3,
        parts: RELEASE_FILES_MAX + 3,
        fileSize: RELEASE_FILE_MAX,
        fieldSize: 64 * 1024,
      },
      throwFileSizeLimit: false,
    });
    await app.register(rolloutRoutes(ctx));
    await app.register(releaseDeviceRoutes(ctx, storage));

    app.post(
      '/releases',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['releases'],
          summary:
            "Uploads a release of the shell (with electron-builder's latest*.yml) or of the web player (with release.json): multipart/form-data, fields kind, channel, notes and the files; every file must match its sha512 in the manifest",
          consumes: ['multipart/form-data'],
          response: { 201: releaseSchema },
        },
      },
      async (request, reply) => {
        refuseDeviceBound(request, 'upload releases');
        const room = await mediaRoom(ctx.db, false);
        const upload = await receiveRelease(
          request,
          await storage.incomingDir(),
          new UploadRoom(room.bytes, room.refuse),
        );
        try {
          const release = await uploadRelease(ctx, storage, upload.fields, upload.files, upload.manifests);
          return await reply.status(201).send(release);
        } finally {
          await removeReceived(upload.files);
        }
      },
    );

    app.get(
      '/releases',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['releases'],
          summary:
            'Lists the player releases, newest first, each with its files; ?kind= and ?channel= keep to one',
          querystring: listQuery,
          response: { 200: z.array(releaseSchema) },
        },
      },
      async (request) => {
        const { kind, channel } = request.query;
        const all = (await releases.list()).filter(
          (release) => (!kind || release.kind === kind) && (!channel || release.channel === channel),
        );
        const bound = await offeredToBound(request);
        return bound ? all.filter((release) => bound.has(release.id)) : all;
      },
    );

    app.get(
      '/releases/:id',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['releases'],
          summary: 'Returns one player release with its files',
          params: idParams,
          response: { 200: releaseSchema },
        },
      },
      async (request) => {
        const release = await releases.find(request.params.id);
        const bound = await offeredToBound(request);
        if (!release || (bound && !bound.has(release.id))) throw notFound(`release ${request.params.id}`);
        return release;
      },
    );

    app.delete(
      '/releases/:id',
      {
        config: { permission: 'delete' },
        schema: {
          tags: ['releases'],
          summary: 'Deletes a release and its files; refused (409) while a rollout in force or a pin uses it',
          params: idParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        refuseDeviceBound(request, 'delete releases');
        if (!(await deleteRelease(ctx, storage, request.params.id)))
          throw notFound(`release ${request.params.id}`);
        return reply.status(204).send(null);
      },
    );
  };
}
