import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromFile } from 'file-type';
import { MEDIA_CONTENT_TYPES, type MediaKind } from '../../src/shared/media';
import { newId } from '../ids';
import type { ReceivedFile } from './storage';

/**
 * Streams an upload into a new file of `dir`, hashing it on the way: memory holds one chunk at a
 * time, whatever the file's size. The file is synced before it is answered, since it is about to
 * be kept. `truncated` tells whether the stream stopped at its limit (busboy's `truncated`).
 */
export async function receiveFile(
  stream: Readable & { truncated?: boolean },
  dir: string,
): Promise<ReceivedFile & { truncated: boolean }> {
  const path = join(dir, newId('upload'));
  const hash = createHash('sha256');
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(stream, counter, createWriteStream(path, { mode: 0o600, flush: true }));
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
  return { path, sha256: hash.digest('hex'), bytes, truncated: stream.truncated === true };
}

/** What a file is by its first bytes; null when it is none of the types the players show. */
export async function sniffMedia(path: string): Promise<{ contentType: string; kind: MediaKind } | null> {
  const type = await fileTypeFromFile(path);
  const known = type ? MEDIA_CONTENT_TYPES[type.mime] : undefined;
  return known ? { contentType: known.type, kind: known.kind } : null;
}
