import type { BrowserWindow, BrowserWindowConstructorOptions } from 'electron';
import type { Logger } from '../agent/ports';
import { APP_INDEX_URL } from './protocols';
import { hardenContents } from './session-security';

export function kioskWindowOptions(options: {
  preload: string;
  windowed: boolean;
}): BrowserWindowConstructorOptions {
  const { preload, windowed } = options;
  return {
    ...(windowed
      ? { width: 1280, height: 720, fullscreen: false, kiosk: false }
      : { fullscreen: true, kiosk: true, frame: false, alwaysOnTop: true }),
    show: false,
    backgroundColor: '#000000',
    autoHideMenuBar: true,
    title: 'Wallboard',
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      backgroundThrottling: false,
      spellcheck: false,
      autoplayPolicy: 'no-user-gesture-required',
    },
  };
}

type WindowClass = new (options: BrowserWindowConstructorOptions) => BrowserWindow;

/**
 * The one window: black until the page has painted, the cursor hidden in every document it
 * loads, nothing it may navigate to or open. Loading starts with `load()` so the IPC and the
 * self-healing are wired before the page can ask anything.
 */
export function createKioskWindow(
  Window: WindowClass,
  options: { preload: string; windowed: boolean; log: Logger },
): { window: BrowserWindow; load: () => Promise<void> } {
  const window = new Window(kioskWindowOptions(options));
  const { webContents } = window;
  hardenContents(webContents, options.log);
  window.once('ready-to-show', () => window.show());
  // Into every document: a wall screen has no pointer to show. A literal, as only constant CSS
  // may be inserted (Electronegativity checks it).
  webContents.on('dom-ready', () => {
    webContents.insertCSS('* { cursor: none !important; }').catch((error: unknown) => {
      options.log.warn(`could not hide the cursor: ${String(error)}`);
    });
  });
  if (!options.windowed) window.setMenu(null);
  return { window, load: () => window.loadURL(APP_INDEX_URL) };
}
