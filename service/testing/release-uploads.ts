// Uploads of player releases for the service's tests: a multipart POST /releases of fields and
// files, and the release.json a web release's files make.
import { createHash } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { multipart, type Part } from './multipart';

export interface FileSpec {
  name: string;
  content: Buffer;
}

export const sha512 = (bytes: Buffer | string) => createHash('sha512').update(bytes).digest('base64');

/** The web release manifest of `files` as release `version`. */
export const webManifest = (version: string, files: readonly FileSpec[]) =>
  JSON.stringify({
    version,
    files: files.map((file) => ({
      name: file.name,
      size: file.content.length,
      sha512: sha512(file.content),
    })),
  });

/** POST /releases with `token`: the fields, then each file as a part named "file". */
export function postRelease(
  app: FastifyInstance,
  token: string,
  fields: Record<string, string>,
  files: readonly FileSpec[],
): Promise<LightMyRequestResponse> {
  const parts: Part[] = [
    ...Object.entries(fields).map(([name, content]) => ({ name, content })),
    ...files.map((file) => ({ name: 'file', filename: file.name, content: file.content })),
  ];
  const body = multipart(parts);
  return app.inject({
    method: 'POST',
    url: '/releases',
    headers: { ...body.headers, authorization: `Bearer ${token}` },
    payload: body.payload,
  });
}
