import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { mediaSchema, type Media } from '../../../../src/shared/media';
import { ApiError, request } from '../../api/client';
import { describeIssues } from '../../../../src/shared/issues';

/**
 * The header of `GET /media` that tells the largest file the library takes (--media-max-mb), so
 * the console says it before an upload and refuses a bigger file without sending it.
 */
const MAX_BYTES_HEADER = 'x-wallboard-media-max-bytes';

export interface MediaLibrary {
  media: Media[];
  /** Null when the service does not say: then only its own refusal tells. */
  maxBytes: number | null;
}

async function listMedia(): Promise<MediaLibrary> {
  const response = await request('/media');
  const parsed = z.array(mediaSchema).safeParse(await response.json());
  if (!parsed.success) {
    throw new ApiError(
      response.status,
      'unexpected',
      `unexpected answer from /media: ${describeIssues(parsed.error)}`,
    );
  }
  const header = Number(response.headers.get(MAX_BYTES_HEADER));
  return { media: parsed.data, maxBytes: Number.isSafeInteger(header) && header > 0 ? header : null };
}

/** The media library, for every page that shows or picks media (one cache entry, one shape). */
export const mediaQuery = queryOptions({ queryKey: ['media'], queryFn: listMedia });
