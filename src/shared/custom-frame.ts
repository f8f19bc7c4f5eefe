/**
 * The pages a custom widget's code runs in (renderer/public/, copied as they are next to the
 * player's and the console's index.html). Each is loaded in an `<iframe sandbox="allow-scripts">`:
 * an opaque origin with no access to the player, its storage or its cookies. They are pages of
 * their own rather than `srcdoc` because a srcdoc frame would inherit the player's policy, which
 * runs no inline script; and two of them because a page's policy can be narrowed after it loads
 * but never widened: the network is either in a page's policy from the start or never.
 */
export const CUSTOM_FRAME_PAGES = {
  /** No network at all: what the code draws comes from its data only. */
  sealed: 'custom-frame.html',
  /** https only (`--custom-widgets-network`): fetches, images and fonts from the web. */
  network: 'custom-frame-net.html',
} as const;

/** The pages' own script (a classic one: a module script from an opaque origin would need CORS). */
export const CUSTOM_FRAME_SCRIPT = 'custom-frame.js';

const COMMON = [
  "default-src 'none'",
  // 'self' for the host script; inline for the widget's code, which the host script writes in.
  "script-src 'self' 'unsafe-inline'",
  "style-src 'unsafe-inline'",
  "base-uri 'none'",
  "form-action 'none'",
];

/** Each page's policy: in its meta tag, and sent by the servers in place of the player's. */
export const CUSTOM_FRAME_POLICIES: Record<string, string> = {
  [CUSTOM_FRAME_PAGES.sealed]: [...COMMON, 'img-src data: blob:', 'font-src data:'].join('; '),
  [CUSTOM_FRAME_PAGES.network]: [
    ...COMMON,
    'img-src https: data: blob:',
    'font-src https: data:',
    'media-src https: data: blob:',
    'connect-src https:',
  ].join('; '),
};

/** The policy an answer for `pathname` carries instead of the player's: a host page's own, else null. */
export function customFramePolicy(pathname: string): string | null {
  const name = pathname.slice(pathname.lastIndexOf('/') + 1);
  return Object.hasOwn(CUSTOM_FRAME_POLICIES, name) ? (CUSTOM_FRAME_POLICIES[name] ?? null) : null;
}

/**
 * The Chromium feature that runs sandboxed frames in processes of their own, so a custom widget's
 * code that never returns freezes its frame only, never the board: on by default in today's
 * Chromium, asked for anyway by the kiosk, the shell and the tests' browser.
 */
export const FRAME_ISOLATION_FEATURE = 'IsolateSandboxedIframes';
