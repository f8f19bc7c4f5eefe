import { z } from 'zod';
import { invalid } from '../domain/errors';

/**
 * The query of a route that takes none. A parameter we do not know is refused (400 naming it)
 * rather than ignored: a client asking for a filter we lack must not get every row back instead.
 */
export const noQuery = z.strictObject({});

/**
 * The original product's clients send a resource's own `id` back in the body of its update. The
 * path's own id is dropped; another one is refused, since the id is not something an update changes.
 * `also` are other names of the same resource the body may use (a flow's path may be its tag).
 */
export function withoutPathId<T extends { id?: string | undefined }>(
  body: T,
  pathId: string,
  ...also: string[]
): Omit<T, 'id'> {
  const { id, ...rest } = body;
  if (id !== undefined && id !== pathId && !also.includes(id)) {
    throw invalid(`the body's id "${id}" is not the path's "${pathId}"`, [
      { path: 'body.id', message: `must be "${pathId}", the path's id, or absent` },
    ]);
  }
  return rest;
}
