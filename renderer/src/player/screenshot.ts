import type { WallboardBridge } from '../../../src/shared/bridge';
import { SCREENSHOT_BASE64_MAX } from '../../../src/shared/command';

/** A capture slower than this is given up: a screen busy for longer than that has a problem of its own. */
const CAPTURE_TIMEOUT_MS = 20_000;

/**
 * A PNG of what the page shows, in base64: the viewport at the screen's pixel density, drawn by
 * modern-screenshot (the page as an SVG foreignObject painted on a canvas; canvases and the
 * current frames of videos included). Within the player's Content-Security-Policy: it loads
 * images as data: and blob: URLs and fetches only the page's own files.
 */
export async function captureScreen(): Promise<string> {
  // Loaded on the first screenshot only: the player starts without it.
  const { domToPng } = await import('modern-screenshot');
  const root = document.documentElement;
  const dataUrl = await domToPng(root, {
    width: window.innerWidth,
    height: window.innerHeight,
    scale: window.devicePixelRatio,
    // The page's own background where nothing covers it, as the screen shows it.
    backgroundColor: getComputedStyle(document.body).backgroundColor || '#000',
    timeout: CAPTURE_TIMEOUT_MS,
  });
  return dataUrl.slice(dataUrl.indexOf(',') + 1);
}

/** Answers the agent's `screenshot` message (the web player's screenshot command). */
export async function answerScreenshot(
  bridge: Pick<WallboardBridge, 'screenshotTaken'>,
  requestId: string,
  capture: () => Promise<string> = captureScreen,
): Promise<void> {
  try {
    const png = await capture();
    if (png.length > SCREENSHOT_BASE64_MAX) {
      bridge.screenshotTaken({ request_id: requestId, error: 'the capture is larger than 8 MiB' });
      return;
    }
    bridge.screenshotTaken({ request_id: requestId, png_base64: png });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    bridge.screenshotTaken({ request_id: requestId, error: reason.slice(0, 1000) || 'the capture failed' });
  }
}
