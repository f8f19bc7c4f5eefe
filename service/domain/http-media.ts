import type { ServiceConfig } from '../context';
import { invalid } from './errors';

export const HTTP_MEDIA_REFUSED =
  'must be an https URL; this service does not allow plain http media (--allow-http-media)';

/** A media URL of a write, named by the field that holds it. */
export interface NamedMediaUrl {
  path: string;
  url: string | null | undefined;
}

/** The screen itself: nobody on the way can replace what it serves (src/main/media-guard.ts agrees). */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

function isPlainHttp(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' && !LOOPBACK.has(parsed.hostname);
  } catch {
    // A library medium's relative URL, fetched from the service itself.
    return false;
  }
}

/** Whether `url` is media over plain http that this service refuses. */
export function isPlainHttpMedia(config: Pick<ServiceConfig, 'httpMedia'>, url: string): boolean {
  return !config.httpMedia && isPlainHttp(url);
}

/**
 * Refuses (400) media over plain http unless the service allows it (`--allow-http-media`): the
 * shared schemas take both, as a console cannot know the service's choice, and screens fetch
 * remote media over https only unless told otherwise (PlayerState.settings.web.http_media). Web
 * pages are not media: they are never checked here.
 */
export function refuseHttpMedia(
  config: Pick<ServiceConfig, 'httpMedia'>,
  named: readonly NamedMediaUrl[],
): void {
  const issues = named.flatMap(({ path, url }) =>
    url && isPlainHttpMedia(config, url) ? [{ path, message: HTTP_MEDIA_REFUSED }] : [],
  );
  const first = issues[0];
  if (first) throw invalid(`${first.path} ${HTTP_MEDIA_REFUSED}`, issues);
}
