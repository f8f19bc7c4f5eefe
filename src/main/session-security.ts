import type { Session, WebContents } from 'electron';
import type { Logger } from '../agent/ports';
import { customFramePolicy } from '../shared/custom-frame';
import { APP_ORIGIN } from './protocols';

/**
 * Playback needs no permission: autoplay is a web preference, notifications are drawn in the
 * page, the window is full-screen through kiosk mode rather than the Fullscreen API, and the
 * default audio output is used ('speaker-selection' is not needed for it). So every request and
 * every check is refused; the list stays here so a need that appears later is a one-line change.
 */
export const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set<string>();

type SessionLike = Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'> & {
  webRequest: Pick<Session['webRequest'], 'onHeadersReceived'>;
};

function isCustomFramePage(url: string): boolean {
  return url.startsWith(`${APP_ORIGIN}/`) && customFramePolicy(new URL(url).pathname) !== null;
}

/** The default session: the CSP on every answer, and no permission but the allowed ones. */
export function hardenSession(session: SessionLike, log: Logger): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    // A web page in one of the player's frames keeps its own headers: its policy (and whether it
    // lets itself be framed) is its own, and the player's would break it.
    if (details.resourceType === 'subFrame' && /^https?:/i.test(details.url)) {
      callback({});
      return;
    }
    // A custom widget's host page keeps the policy the app protocol gave it: its own, which runs
    // the widget's inline code (src/shared/custom-frame.ts).
    if (details.resourceType === 'subFrame' && isCustomFramePage(details.url)) {
      callback({});
      return;
    }
    // Replaces any policy of the answer's own (the app protocol sends the same one).
    const headers = Object.fromEntries(
      Object.entries(details.responseHeaders ?? {}).filter(
        ([name]) => name.toLowerCase() !== 'content-security-policy',
      ),
    );
    // The policy of protocols.ts, written out here so Electronegativity can read and rate it (it
    // reads only a literal in this place); shell.test.ts checks the two are the same.
    callback({
      responseHeaders: {
        ...headers,
        'Content-Security-Policy': [
          "default-src 'self'; script-src app://wallboard/assets/; img-src 'self' data: blob: wallboard-media:; media-src 'self' blob: wallboard-media:; style-src 'self' 'unsafe-inline'; connect-src 'self'; font-src 'self' data:; frame-src 'self' http: https:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        ],
      },
    });
  });
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    const allowed = ALLOWED_PERMISSIONS.has(permission);
    if (!allowed) log.warn(`refused the permission "${permission}" asked by ${details.requestingUrl}`);
    callback(allowed);
  });
  session.setPermissionCheckHandler((_contents, permission) => ALLOWED_PERMISSIONS.has(permission));
}

type ContentsLike = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

/** Contents already hardened: the window's own contents are met twice (see shell.ts). */
const hardened = new WeakSet<ContentsLike>();

/**
 * Every web contents (the window's, and any the page might try to create): no navigation away
 * from the page it was given, no new windows, no <webview>. Nothing is handed to the OS either:
 * there is no shell.openExternal anywhere in the shell.
 */
export function hardenContents(contents: ContentsLike, log: Logger): void {
  if (hardened.has(contents)) return;
  hardened.add(contents);
  contents.on('will-navigate', (event, url) => {
    event.preventDefault();
    log.warn(`refused navigation to ${describe(url)}`);
  });
  contents.on('will-redirect', (event, url) => {
    event.preventDefault();
    log.warn(`refused a redirect to ${describe(url)}`);
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    log.warn('refused a <webview>');
  });
  contents.setWindowOpenHandler(({ url }) => {
    log.warn(`refused to open a window for ${describe(url)}`);
    return { action: 'deny' };
  });
}

/** A URL for the log without its query or fragment, which may hold secrets. */
function describe(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return url.slice(0, 100);
  }
}
