import { createHash } from 'node:crypto';
import { libraryMediaId } from '../shared/media';
import { extensionOfType } from '../shared/media-types';

/**
 * The URLs the media cache downloads: remote files over http(s), and the service's library media
 * (`/media/<id>/content`, docs/api/media.md), relative to the service the screen talks to and
 * fetched with its own token.
 */

/** The service library media are fetched from, with the screen's token. */
export interface MediaService {
  server: string;
  token: string;
}

export function isLibraryUrl(url: string): boolean {
  return libraryMediaId(url) !== null;
}

/** Whether the cache can fetch `url` at all: http(s), or a library medium. */
export function isMediaUrl(url: string): boolean {
  return isLibraryUrl(url) || /^https?:\/\//.test(url);
}

/** Throws what is wrong with a media URL the cache was asked for. */
export function checkUrl(url: string): void {
  if (isLibraryUrl(url)) return;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`media URL is not a valid URL: "${url}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`media URL must be http or https, not ${parsed.protocol}`);
  }
}

/**
 * What to fetch for `url`: a library medium's URL resolved against the service (a base with a
 * path keeps it, as the service client joins them), and the token sent to the service's own
 * origin only, never to another host a playlist names.
 */
export function mediaRequest(
  url: string,
  service: MediaService | null,
): { href: string; headers: Record<string, string> } {
  if (isLibraryUrl(url) && !service) {
    throw new Error(`${url} is a medium of the service's library, and this screen has no service yet`);
  }
  const href = isLibraryUrl(url) && service ? `${service.server.replace(/\/+$/, '')}${url}` : url;
  const own = service !== null && originOf(href) === originOf(service.server);
  return { href, headers: own && service ? { authorization: `Bearer ${service.token}` } : {} };
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** The part of a cache file name that a URL decides: 32 hex digits of its sha256. */
export function hashOf(url: string): string {
  return createHash('sha256').update(url).digest('hex').slice(0, 32);
}

/**
 * The cache file name of a URL: its hash, then its extension. A library URL has none in its path,
 * so its file takes the one of the type it was served as, once downloaded (`contentType`), for
 * the players' file servers, which type a file by its extension.
 */
export function cacheNameOf(url: string, contentType?: string | null): string {
  if (isLibraryUrl(url)) return hashOf(url) + (contentType ? extensionOfType(contentType) : '');
  return hashOf(url) + extensionOf(url);
}

/** Whether `name` is a cache file name `url` may have (a library URL's extension comes later). */
export function isNameOf(name: string, url: string): boolean {
  if (!isLibraryUrl(url)) return name === cacheNameOf(url);
  return name.startsWith(hashOf(url)) && /^(\.[a-z0-9]{1,5})?$/.test(name.slice(32));
}

function extensionOf(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return '';
  }
  const extension = /\.([A-Za-z0-9]{1,5})$/.exec(path)?.[1];
  return extension === undefined ? '' : `.${extension.toLowerCase()}`;
}

/** The URL without query or fragment, for logs and errors: signed media URLs carry secrets there. */
export function describe(url: string): string {
  if (isLibraryUrl(url)) return url;
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url.slice(0, 100);
  }
}
