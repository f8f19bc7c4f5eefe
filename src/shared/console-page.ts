/**
 * Where the console lives on the service's origin: the API owns the other paths, so the page and
 * its client routes are under /console/ (and `/` answers the page too).
 */
export const CONSOLE_BASE = '/console/';

/**
 * Written by Vite's build in the console's index.html where a nonce goes, and replaced by the
 * service with a fresh nonce in every answer of the page, so that its Content-Security-Policy
 * needs no 'unsafe-inline' (service/routes/console.ts).
 */
export const CSP_NONCE_PLACEHOLDER = 'WALLBOARD_CSP_NONCE';

/** The console's sign-in page; a one-time code rides in the fragment (never sent to a server). */
export const SIGN_IN_PATH = `${CONSOLE_BASE}sign-in`;
