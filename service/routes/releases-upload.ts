import type { FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { releaseChannelSchema, releaseFileNameSchema, releaseKindSchema } from '../../src/shared/release';
import { removeReceived, type ReceivedRelease } from '../actions/releases';
import { FEED_NAME, WEB_MANIFEST } from '../domain/release-manifests';
import { DomainError } from '../domain/errors';
import { HttpError } from '../http/errors';
import { newId } from '../ids';

/** The largest file of a release: an installer of the shell is some 100 MB. */
export const RELEASE_FILE_MAX = 1024 * 1024 * 1024;
/** The most files of one release: the web player's bundle holds a few hundred. */
export const RELEASE_FILES_MAX = 5000;
/** A manifest is read whole: no feed or release.json is near this. */
const MANIFEST_MAX = 4 * 1024 * 1024;

export const UPLOAD_HINT =
  'send multipart/form-data: fields kind (shell or web), channel (stable or beta, default stable), notes, and the files, each part named "file" with the file\'s path in the release as its filename, e.g. curl -F kind=web -F file=@release.json -F "file=@dist/renderer/assets/index.js;filename=assets/index.js"';

const fieldsSchema = z.strictObject({
  kind: releaseKindSchema,
  channel: releaseChannelSchema.default('stable'),
  notes: z.string().max(10_000).default(''),
});

/** An upload of a release as received: its fields, its files in temporary files, its manifests' text. */
export interface ReleaseUpload {
  fields: z.infer<typeof fieldsSchema>;
  files: ReceivedRelease[];
  manifests: Map<string, string>;
}

const isManifest = (name: string) => FEED_NAME.test(name) || name === WEB_MANIFEST;

/** What the account's media quota leaves for the whole upload, counted down as it is received. */
export class UploadRoom {
  /** A chunk did not fit: the upload is refused whole. */
  exceeded = false;

  /** `bytes` null: no quota. */
  constructor(
    private bytes: number | null,
    readonly refuse: () => Error,
  ) {}

  /** Whether `bytes` more fit; once a chunk did not, none does. */
  take(bytes: number): boolean {
    if (this.bytes === null) return true;
    if (this.exceeded || bytes > this.bytes) {
      this.exceeded = true;
      return false;
    }
    this.bytes -= bytes;
    return true;
  }
}

/**
 * Streams one file into `dir`, hashing it both ways on the way; memory holds one chunk at a time.
 * Past the room, chunks are read and dropped: no more than the room reaches the disk, and the
 * client hears the refusal once it has sent its body (as a media upload past the quota does).
 */
async function receiveOne(
  stream: Readable & { truncated?: boolean },
  dir: string,
  name: string,
  room: UploadRoom,
): Promise<ReceivedRelease & { truncated: boolean }> {
  const path = join(dir, newId('upload'));
  const sha256 = createHash('sha256');
  const sha512 = createHash('sha512');
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (!room.take(chunk.length)) {
        done();
        return;
      }
      sha256.update(chunk);
      sha512.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  const received = { path, name, size: 0, sha256: '', sha512: '', truncated: false };
  await pipeline(stream, counter, createWriteStream(path, { mode: 0o600, flush: true })).catch(
    async (error: unknown) => {
      await removeReceived([received]);
      throw error;
    },
  );
  return {
    ...received,
    size,
    sha256: sha256.digest('hex'),
    sha512: sha512.digest('base64'),
    truncated: stream.truncated === true,
  };
}

const refused = (message: string, path = 'files') =>
  new HttpError(400, 'invalid_request', message, [{ path, message }]);

/**
 * Receives an upload of a release into temporary files of `dir`. Refused (400, and every file
 * received removed): a field other than kind, channel, notes; a file of a name that is not a
 * relative path, or given twice; a file past the limit (413); past the account's media quota,
 * that refusal (403), with no more than the room it had written.
 */
export async function receiveRelease(
  request: FastifyRequest,
  dir: string,
  room: UploadRoom,
): Promise<ReleaseUpload> {
  if (!request.isMultipart())
    throw new HttpError(415, 'unsupported_media_type', `${request.method} ${request.url}: ${UPLOAD_HINT}`);
  const files: ReceivedRelease[] = [];
  const raw: Record<string, string> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname in raw)
          throw refused(`the field ${part.fieldname} is given twice`, part.fieldname);
        raw[part.fieldname] = String(part.value);
        continue;
      }
      const name = part.filename;
      const file = await receiveOne(part.file, dir, name, room);
      files.push(file);
      if (!releaseFileNameSchema.safeParse(name).success)
        throw refused(
          `the file name ${JSON.stringify(name)} is not a relative path without "." or ".." parts`,
          `files.${name}`,
        );
      if (files.filter((other) => other.name === name).length > 1)
        throw refused(`the file ${name} is given twice`, `files.${name}`);
      if (file.truncated)
        throw new HttpError(
          413,
          'payload_too_large',
          `${JSON.stringify(name)} is larger than a release file may be (${RELEASE_FILE_MAX} bytes); nothing was kept`,
        );
    }
    if (room.exceeded) throw room.refuse();
  } catch (error) {
    await removeReceived(files);
    if (error instanceof HttpError || error instanceof DomainError) throw error;
    const { code, errno } = error as { code?: unknown; errno?: unknown };
    if (errno !== undefined) throw error;
    throw new HttpError(
      400,
      'invalid_request',
      code === 'FST_FILES_LIMIT'
        ? `a release holds at most ${RELEASE_FILES_MAX} files`
        : `the multipart body is malformed (${(error as Error).message}): ${UPLOAD_HINT}`,
    );
  }
  try {
    const fields = fieldsSchema.safeParse(raw);
    if (!fields.success)
      throw new HttpError(
        400,
        'invalid_request',
        `the upload's fields are not right: ${UPLOAD_HINT}`,
        fields.error.issues.map((issue) => ({
          path: issue.path.join('.') || 'body',
          message: issue.message,
        })),
      );
    if (files.length === 0) throw refused(`the upload holds no file: ${UPLOAD_HINT}`);
    const manifests = new Map<string, string>();
    for (const file of files) {
      if (!isManifest(file.name)) continue;
      if (file.size > MANIFEST_MAX)
        throw refused(`${file.name} is larger than a manifest may be`, `files.${file.name}`);
      manifests.set(file.name, await readFile(file.path, 'utf8'));
    }
    return { fields: fields.data, files, manifests };
  } catch (error) {
    await removeReceived(files);
    throw error;
  }
}
