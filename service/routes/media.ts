import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { rm } from 'node:fs/promises';
import { z } from 'zod';
import { parseRange } from '../../src/shared/byte-range';
import { idSchema } from '../../src/shared/common';
import { mediaSchema, mediaUpdateSchema, type Media } from '../../src/shared/media';
import { deleteMedia, mediaNameOf, uploadMedia } from '../actions/media';
import { replaceMedia, updateMedia } from '../actions/media-versions';
import { mediaRoom } from '../accounts/quotas';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';
import { HttpError } from '../http/errors';
import { FileMediaStorage } from '../media/file-storage';
import { PostgresMediaStorage } from '../media/postgres-storage';
import { receiveFile, sniffMedia } from '../media/receive';
import type { MediaStorage, ReceivedFile } from '../media/storage';
import { MediaRepository } from '../repositories/media';

const idParams = z.object({ id: idSchema });
/** `v`: the version a playlist or board names the content by (`playUrlOf`); `until` is the screens' business. */
const contentQuery = z.object({ v: z.string().optional(), until: z.string().optional() });
const deleteQuery = z.object({
  detach: z
    .enum(['true', 'false'], { error: 'must be "true" or "false"' })
    .optional()
    .transform((value) => value === 'true'),
});

const UPLOAD_HINT = 'send multipart/form-data with exactly one file part, e.g. curl -F file=@logo.png';

/** @fastify/multipart's refusals of a body past its limits, as the clear 400s of this route. */
const MULTIPART_REFUSALS: Record<string, string> = {
  FST_FILES_LIMIT: `an upload holds one file, not several: ${UPLOAD_HINT}`,
  FST_FIELDS_LIMIT: `an upload holds one file part and no other fields: ${UPLOAD_HINT}`,
  FST_PARTS_LIMIT: `an upload holds one file part and nothing else: ${UPLOAD_HINT}`,
  FST_PROTO_VIOLATION: `a part's name is not allowed: ${UPLOAD_HINT}`,
};

/** An error of the body's parsing, not of our disk: busboy's and the plugin's own. */
function isParseError(error: unknown): boolean {
  const { code, errno } = error as { code?: unknown; errno?: unknown };
  return errno === undefined && (typeof code !== 'string' || code.startsWith('FST_') || code === 'ABORT_ERR');
}

/**
 * The one file of a multipart upload, streamed to a temporary file; anything else is refused. No
 * more than `room` bytes are written when the account's media quota leaves less than `maxBytes`:
 * busboy stops writing there and reads the rest of the body, and the upload is refused.
 */
async function receiveUpload(
  request: FastifyRequest,
  dir: string,
  maxBytes: number,
  room: { bytes: number | null; refuse(): Error },
): Promise<ReceivedFile & { name: string }> {
  const byQuota = room.bytes !== null && room.bytes < maxBytes;
  if (!request.isMultipart())
    throw new HttpError(415, 'unsupported_media_type', `${request.method} ${request.url}: ${UPLOAD_HINT}`);
  let received: (ReceivedFile & { name: string; truncated: boolean }) | null = null;
  try {
    const parts = request.parts(byQuota ? { limits: { fileSize: room.bytes ?? maxBytes } } : {});
    for await (const part of parts) {
      // Fields are refused by the fields limit (0) before they get here.
      if (part.type !== 'file') continue;
      received = { ...(await receiveFile(part.file, dir)), name: mediaNameOf(part.filename) };
    }
  } catch (error) {
    if (received) await rm(received.path, { force: true });
    if (!isParseError(error)) throw error;
    const code = (error as { code?: string }).code ?? '';
    throw new HttpError(
      400,
      'invalid_request',
      MULTIPART_REFUSALS[code] ??
        `the multipart body is malformed (${(error as Error).message}): ${UPLOAD_HINT}`,
    );
  }
  if (!received) throw new HttpError(400, 'invalid_request', `the upload holds no file: ${UPLOAD_HINT}`);
  if (received.truncated) {
    await rm(received.path, { force: true });
    if (byQuota) throw room.refuse();
    throw new HttpError(
      413,
      'payload_too_large',
      `${JSON.stringify(received.name)} is larger than the media library takes (${maxBytes} bytes, --media-max-mb); nothing was kept`,
    );
  }
  return received;
}

/** Whether an If-None-Match header names this entity tag (or any, `*`). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed === etag || trimmed === `W/${etag}`;
  });
}

/** A medium's bytes, whole or the one range asked for, as files are served (RFC 9110). */
async function sendContent(
  storage: MediaStorage,
  media: Pick<Media, 'sha256' | 'name' | 'bytes' | 'content_type'>,
  request: FastifyRequest,
  reply: FastifyReply,
  version: string | undefined,
): Promise<FastifyReply> {
  const etag = `"${media.sha256}"`;
  // A medium's file can be replaced under its id: only the URL of one version (`?v=`, what
  // playlists and boards name) is the same bytes for ever; the plain URL is checked each time.
  const immutable = version !== undefined && version.length >= 8 && media.sha256.startsWith(version);
  reply
    .header('etag', etag)
    .header('accept-ranges', 'bytes')
    // Never public: the library is the account's.
    .header('cache-control', immutable ? 'private, max-age=31536000, immutable' : 'private, no-cache')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(media.name)}`);
  if (matches(request.headers['if-none-match'], etag)) return reply.status(304).send();
  const range = parseRange(request.headers.range, media.bytes);
  if (range === 'unsatisfiable') {
    return reply
      .status(416)
      .header('content-range', `bytes */${media.bytes}`)
      .send({
        error: {
          code: 'range_not_satisfiable',
          message: `the range ${request.headers.range} is outside the medium's ${media.bytes} bytes`,
          details: [],
        },
      });
  }
  const stream = await storage.read(media.sha256, range);
  reply.type(media.content_type);
  if (range === null) return reply.header('content-length', String(media.bytes)).send(stream);
  return reply
    .status(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${media.bytes}`)
    .header('content-length', String(range.end - range.start + 1))
    .send(stream);
}

const notPlayable = (name: string) =>
  `${JSON.stringify(name)} is not an image, video or sound the screens play (its content was checked, not its name or declared type): upload PNG, JPEG, GIF, WebP, AVIF or ICO images, MP4, WebM, Ogg or QuickTime videos, MP3, M4A, Ogg or WAV sounds`;

/** `GET /media` tells the largest file an upload may be (docs/api/media.md). */
export const MAX_BYTES_HEADER = 'x-wallboard-media-max-bytes';

export function mediaRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const media = new MediaRepository(ctx.db, ctx.seenMedia);

  const findSeen = async (id: string): Promise<Media> => {
    const seen = await media.findUsed(id);
    if (!seen) throw notFound(`medium ${id}`);
    return seen;
  };

  return async (app) => {
    const storage: MediaStorage =
      ctx.db.kind === 'postgres'
        ? await PostgresMediaStorage.open(ctx.db, ctx.config.mediaDir)
        : await FileMediaStorage.open(ctx.db, ctx.config.mediaDir);
    app.addHook('onClose', () => storage.close());
    // Only this plugin parses multipart bodies; the limits make a second file or any field an error.
    await app.register(multipart, {
      limits: { files: 1, fields: 0, parts: 2, fileSize: ctx.config.mediaMaxBytes },
      throwFileSizeLimit: false,
    });

    app.post(
      '/media',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['media'],
          summary:
            'Uploads one image, video or sound (multipart/form-data, one file part); its type is told by its content',
          consumes: ['multipart/form-data'],
          response: { 201: mediaSchema },
        },
      },
      async (request, reply) => {
        const room = await mediaRoom(ctx.db);
        const file = await receiveUpload(
          request,
          await storage.incomingDir(),
          ctx.config.mediaMaxBytes,
          room,
        );
        const type = await sniffMedia(file.path);
        if (!type) {
          await rm(file.path, { force: true });
          throw new HttpError(415, 'unsupported_media_type', notPlayable(file.name));
        }
        return reply.status(201).send(await uploadMedia(ctx, storage, file, file.name, type));
      },
    );

    app.get(
      '/media',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['media'],
          summary: 'Lists the media library, oldest first, each with the playlists and boards that use it',
          response: { 200: z.array(mediaSchema) },
        },
      },
      async (_request, reply) => {
        const seen = await media.listUsed();
        // The largest upload, so that a client (the console) can say it and refuse a file up front.
        reply.header(MAX_BYTES_HEADER, String(ctx.config.mediaMaxBytes));
        return seen;
      },
    );

    app.get(
      '/media/:id',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['media'],
          summary: 'Returns one medium, with the playlists and boards that use it',
          params: idParams,
          response: { 200: mediaSchema },
        },
      },
      async (request) => findSeen(request.params.id),
    );

    app.get(
      '/media/:id/content',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['media'],
          summary:
            "Returns a medium's bytes: one byte range (206, or 416), and 304 to an If-None-Match of its ETag (its sha256)",
          params: idParams,
          querystring: contentQuery,
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const stored = await media.find(id);
        if (!stored) throw notFound(`medium ${id}`);
        return sendContent(storage, stored, request, reply, request.query.v);
      },
    );

    app.patch(
      '/media/:id',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['media'],
          summary:
            'Renames a medium, replaces its tags or sets its expiry (after which screens stop playing it; null: never)',
          params: idParams,
          body: mediaUpdateSchema,
          response: { 200: mediaSchema },
        },
      },
      async (request) => {
        const { id } = request.params;
        const updated = await updateMedia(ctx, id, request.body);
        if (!updated) throw notFound(`medium ${id}`);
        return updated;
      },
    );

    app.put(
      '/media/:id/content',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['media'],
          summary:
            'Replaces the file of a medium, keeping its id (multipart/form-data, one file part of the same kind); the screens playing it fetch the new one',
          consumes: ['multipart/form-data'],
          params: idParams,
          response: { 200: mediaSchema },
        },
      },
      async (request) => {
        const { id } = request.params;
        if (!(await media.find(id))) throw notFound(`medium ${id}`);
        const file = await receiveUpload(
          request,
          await storage.incomingDir(),
          ctx.config.mediaMaxBytes,
          await mediaRoom(ctx.db),
        );
        const type = await sniffMedia(file.path);
        if (!type) {
          await rm(file.path, { force: true });
          throw new HttpError(415, 'unsupported_media_type', notPlayable(file.name));
        }
        const replaced = await replaceMedia(ctx, storage, id, file, type);
        if (!replaced) throw notFound(`medium ${id}`);
        return replaced;
      },
    );

    app.delete(
      '/media/:id',
      {
        config: { permission: 'delete' },
        schema: {
          tags: ['media'],
          summary:
            'Deletes a medium; one in use is refused (409) unless ?detach=true, which takes it out of its playlists and boards',
          params: idParams,
          querystring: deleteQuery,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        if (!(await deleteMedia(ctx, storage, id, request.query.detach))) throw notFound(`medium ${id}`);
        return reply.status(204).send(null);
      },
    );
  };
}
