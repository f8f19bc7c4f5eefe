// The paths of a web player that serves versions of the renderer (web-releases.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { customFramePolicy } from '../shared/custom-frame';
import { WEB_VERSIONS_EVENTS_PATH } from '../shared/web-bridge-protocol';
import { sendFromFolder } from './static-server';
import { labelOfPage, VERSION_PREFIX, versionUrl, type WebReleases } from './web-releases';

/** A version's pages are framed by the page at the top during a swap (the player's own origin), and by nothing else. */
export const VERSION_FRAME_ANCESTORS = "'self'";

/** Sends the browser to the version on screen, keeping the query (`/` and pruned versions' pages). */
function redirectToLive(releases: WebReleases, request: IncomingMessage, response: ServerResponse): void {
  const query = new URL(request.url ?? '/', 'http://localhost').search;
  response.writeHead(302, {
    location: versionUrl(releases.liveVersion().label) + query,
    'cache-control': 'no-cache',
  });
  response.end();
}

/**
 * The paths of a player with versions (web-releases.ts): `/` sends the browser to the version on
 * screen, each version's files are under `/v/<label>/` (framed by the page at the top during a
 * swap), the versions' event stream; any other path from the version on screen.
 */
export function serveReleases(
  releases: WebReleases,
  /** The player's policy with frame-ancestors VERSION_FRAME_ANCESTORS. */
  versionPolicy: string,
  pathname: string,
  request: IncomingMessage,
  response: ServerResponse,
): void {
  if (pathname === '/' || pathname === '/index.html') {
    redirectToLive(releases, request, response);
    return;
  }
  if (pathname === WEB_VERSIONS_EVENTS_PATH) {
    releases.follow(response);
    return;
  }
  const label = labelOfPage(pathname);
  if (label === null) {
    sendFromFolder(releases.liveVersion().dir, decodeURIComponent(pathname), request, response);
    return;
  }
  const rest = pathname.slice(VERSION_PREFIX.length).replace(/^[^/]*/, '') || '/';
  const folder = releases.folderOf(label);
  if (folder === null) {
    // A page of a version gone (pruned, or rolled back): reloaded, it gets the one on screen.
    if (rest === '/' || rest === '/index.html') redirectToLive(releases, request, response);
    else response.writeHead(404).end();
    return;
  }
  if (!customFramePolicy(pathname)) response.setHeader('content-security-policy', versionPolicy);
  sendFromFolder(folder, decodeURIComponent(rest), request, response);
}
