import type { WebContents } from 'electron';
import type { DeviceControls } from '../agent/commands';

/** What remote commands use of the kiosk window. */
export interface CommandWindow {
  isDestroyed(): boolean;
  webContents: Pick<WebContents, 'reload' | 'capturePage' | 'isDestroyed'>;
}

/**
 * A PNG of exactly what the window shows, in its device pixels (Electron's capturePage: the
 * composited page, videos and canvases included). A window that shows nothing (gone, hidden,
 * minimised) is an error that says so, rather than an empty picture.
 */
export async function captureWindow(window: CommandWindow): Promise<Uint8Array> {
  if (window.isDestroyed() || window.webContents.isDestroyed()) throw new Error('the window is gone');
  const image = await window.webContents.capturePage();
  if (image.isEmpty()) throw new Error('the window shows nothing (hidden or minimised?)');
  return image.toPNG();
}

/**
 * The shell's side of remote commands: it reloads and captures its own window, and restarts the
 * app as the self-healing does (`restart`, which records the recovery and relaunches). Identify
 * goes through the renderer (the agent's bridge message).
 */
export function windowControls(window: CommandWindow, restart: () => void): DeviceControls {
  return {
    reload: () => {
      if (!window.isDestroyed()) window.webContents.reload();
    },
    restart,
    screenshot: () => captureWindow(window),
  };
}
