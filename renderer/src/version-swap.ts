import {
  WEB_VERSIONS_EVENTS_PATH,
  webVersionsStateSchema,
  type WebVersionEntry,
  type WebVersionsState,
} from '../../src/shared/web-bridge-protocol';

/** A version's page in the web player: `/v/<label>/...` (src/web-player/web-releases.ts). */
const VERSION_PAGE = /^\/v\/([^/]+)\//;
/** Above everything the app draws, its overlays included. */
const FRAME_LAYER = '2147483647';

/**
 * The web player's swap of renderer versions without a reload (docs/updates.md, "The web
 * player"). The page at the top follows the player's versions: a version on trial is loaded in a
 * full-screen frame above the app, transparent and deaf to the pointer, where it starts, draws and
 * reports what it shows like any page, unseen. Once the player says it is the version on screen,
 * its frame is made opaque in one style change, so the next frame on screen is the new version,
 * already drawn: no frame between the two is blank. Two frames later, with the new one painted
 * over it, the app underneath is stopped (`stopApp`), and this page stays as the frame's holder,
 * swapping the next versions the same way. A version dropped from trial is removed unseen.
 *
 * Does nothing in a frame (the top page swaps), in Electron, or on a page not under a version.
 */
export function followVersions(
  stopApp: () => void,
  /** The page's window (a test's stands in: its location, its frames' timing, its event source). */
  win: Window & Pick<typeof globalThis, 'EventSource'> = window,
): void {
  if (win.top !== win || !/^https?:$/.test(win.location.protocol)) return;
  const match = VERSION_PAGE.exec(win.location.pathname);
  if (!match?.[1]) return;
  const own = decodeURIComponent(match[1]);
  const doc = win.document;
  const frames = new Map<string, HTMLIFrameElement>();
  let shown = own;
  let appStopped = false;

  const frameOf = (entry: WebVersionEntry): HTMLIFrameElement => {
    const frame = doc.createElement('iframe');
    frame.src = entry.url;
    frame.title = `Wallboard ${entry.version}`;
    frame.dataset.version = entry.label;
    frame.allow = 'autoplay; fullscreen';
    Object.assign(frame.style, {
      position: 'fixed',
      inset: '0',
      width: '100%',
      height: '100%',
      border: '0',
      zIndex: FRAME_LAYER,
      opacity: '0',
      pointerEvents: 'none',
    });
    frames.set(entry.label, frame);
    doc.body.append(frame);
    return frame;
  };

  const show = (state: WebVersionsState): void => {
    const { live, trial } = state;
    if (trial && trial.label !== own && !frames.has(trial.label)) frameOf(trial);
    if (live.label === shown) return;
    if (live.label === own) {
      // Back to this page's own version after another was shown: its app is stopped, so it is
      // loaded again (a page that missed the swaps, a player restarted on another version).
      win.location.replace(live.url);
      return;
    }
    const frame = frames.get(live.label) ?? frameOf(live);
    frame.style.opacity = '1';
    frame.style.pointerEvents = 'auto';
    shown = live.label;
    const keep = new Set([live.label, ...(trial ? [trial.label] : [])]);
    win.requestAnimationFrame(() =>
      win.requestAnimationFrame(() => {
        if (!appStopped) {
          appStopped = true;
          stopApp();
        }
        for (const [label, old] of frames) {
          if (keep.has(label) || label === shown) continue;
          frames.delete(label);
          old.remove();
        }
      }),
    );
  };

  const drop = (state: WebVersionsState): void => {
    // A version no longer on trial nor on screen (its trial failed): removed, never seen. One that
    // was on screen goes once the next one has been painted over it (show).
    for (const [label, frame] of frames) {
      if (label === state.live.label || label === state.trial?.label || frame.style.opacity !== '0') continue;
      frames.delete(label);
      frame.remove();
    }
  };

  const events = new win.EventSource(WEB_VERSIONS_EVENTS_PATH);
  events.addEventListener('message', (event: MessageEvent<string>) => {
    let json: unknown;
    try {
      json = JSON.parse(event.data);
    } catch {
      return;
    }
    const parsed = webVersionsStateSchema.safeParse(json);
    if (!parsed.success) return;
    show(parsed.data);
    drop(parsed.data);
  });
}
