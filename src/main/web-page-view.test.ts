import { beforeEach, describe, expect, it } from 'vitest';
import type { WebContentsView } from 'electron';
import { FakeClock, recordingLogger } from '../agent/testing/fakes';
import {
  createFakeElectron,
  fakeEvent,
  type FakeBrowserWindow,
  type FakeElectron,
  type FakeWebContents,
} from './testing/fake-electron';
import { WEB_PAGE_PARTITION, WebPageViews } from './web-page-view';

const PAGE = 'https://dash.example.com/board?team=ops';

let electron: FakeElectron;
let window: FakeBrowserWindow;
let clock: FakeClock;
let log: ReturnType<typeof recordingLogger>;
let pages: WebPageViews;

beforeEach(() => {
  electron = createFakeElectron();
  window = new electron.BrowserWindow({});
  clock = new FakeClock();
  log = recordingLogger();
  pages = new WebPageViews({
    WebContentsView: electron.WebContentsView as unknown as new () => WebContentsView,
    session: electron.session as never,
    window: window as never,
    clock,
    log,
  });
});

const view = () => {
  const only = window.contentView.children;
  expect(only).toHaveLength(1);
  return only[0] as (typeof only)[number];
};

/** What Electron emits before a navigation or redirect: preventable, with the frame's URL. */
function attempt(contents: FakeWebContents, name: string, url: string, isMainFrame = true): boolean {
  const event = Object.assign(fakeEvent(), { url, isMainFrame });
  contents.emit(name, event, url);
  return event.defaultPrevented;
}

describe('full-screen web pages in their own view', () => {
  it('shows the page in a sandboxed view of its own session, over the whole window', async () => {
    expect(await pages.show({ url: PAGE, reload_seconds: null })).toBe(true);
    const shown = view();
    expect(shown.options.webPreferences).toMatchObject({
      partition: WEB_PAGE_PARTITION,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      javascript: true,
    });
    expect(shown.options.webPreferences).not.toHaveProperty('preload');
    // In memory only: a persistent partition would be named `persist:...`.
    expect(WEB_PAGE_PARTITION.startsWith('persist:')).toBe(false);
    expect(shown.webContents.session).toBe(electron.session.fromPartition(WEB_PAGE_PARTITION));
    expect(shown.webContents.session).not.toBe(electron.session.defaultSession);
    expect(shown.webContents.loadedUrls).toEqual([PAGE]);
    expect(shown.bounds).toEqual({ x: 0, y: 0, width: 1920, height: 1080 });
    expect(pages.current).toBe(PAGE);
  });

  it('follows the window when it is resized', async () => {
    await pages.show({ url: PAGE, reload_seconds: null });
    window.contentSize = [1280, 720];
    window.emit('resize');
    expect(view().bounds).toEqual({ x: 0, y: 0, width: 1280, height: 720 });
  });

  it('refuses every permission and every download in its session', async () => {
    await pages.show({ url: PAGE, reload_seconds: null });
    const session = electron.session.fromPartition(WEB_PAGE_PARTITION);
    const answers: boolean[] = [];
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read']) {
      session.permissionRequest?.(null, permission, (granted) => answers.push(granted), {
        requestingUrl: PAGE,
      });
      answers.push(session.permissionCheck?.(null, permission, PAGE, {}) ?? true);
    }
    expect(answers.every((granted) => !granted)).toBe(true);
    const download = fakeEvent();
    session.emit('will-download', download, { getURL: () => 'https://dash.example.com/a.exe' });
    expect(download.defaultPrevented).toBe(true);
    expect(log.lines.join('\n')).toContain('refused the permission "media"');
  });

  it("keeps the main frame to the item's origin, once loaded", async () => {
    await pages.show({ url: PAGE, reload_seconds: null });
    const contents = view().webContents;
    // The item's own load may be redirected (http to https, a login page): its server decides.
    expect(attempt(contents, 'will-redirect', 'https://login.example.com/sso')).toBe(false);
    contents.emit('did-finish-load');
    expect(attempt(contents, 'will-navigate', 'https://dash.example.com/other')).toBe(false);
    expect(attempt(contents, 'will-navigate', 'https://login.example.com/again')).toBe(false);
    expect(attempt(contents, 'will-navigate', 'https://elsewhere.test/')).toBe(true);
    expect(attempt(contents, 'will-redirect', 'https://elsewhere.test/')).toBe(true);
    // Its frames are its own business (embedded players, maps).
    expect(attempt(contents, 'will-navigate', 'https://video.test/embed', false)).toBe(false);
    expect(log.lines.join('\n')).toContain('refused the web page');
  });

  it('opens no window and attaches no <webview>', async () => {
    await pages.show({ url: PAGE, reload_seconds: null });
    const contents = view().webContents;
    expect(contents.windowOpenHandler?.({ url: 'https://popup.test/' })).toEqual({ action: 'deny' });
    expect(contents.attempt('will-attach-webview')).toBe(true);
  });

  it('reloads the page every reload_seconds', async () => {
    await pages.show({ url: PAGE, reload_seconds: 60 });
    const contents = view().webContents;
    await clock.advance(59_000);
    expect(contents.loadedUrls).toHaveLength(1);
    await clock.advance(1_000);
    await clock.advance(60_000);
    expect(contents.loadedUrls).toEqual([PAGE, PAGE, PAGE]);
  });

  it('takes the view down and closes its contents on url: null, and stops reloading', async () => {
    await pages.show({ url: PAGE, reload_seconds: 60 });
    const contents = view().webContents;
    expect(await pages.show({ url: null, reload_seconds: null })).toBe(false);
    expect(window.contentView.children).toEqual([]);
    expect(contents.closed).toBe(true);
    expect(pages.current).toBeNull();
    await clock.advance(120_000);
    expect(contents.loadedUrls).toHaveLength(1);
  });

  it("takes the view down when the player's own page reloads or crashes", async () => {
    await pages.show({ url: PAGE, reload_seconds: null });
    window.webContents.emit('did-start-navigation', { isMainFrame: false, isSameDocument: false });
    window.webContents.emit('did-start-navigation', { isMainFrame: true, isSameDocument: true });
    expect(window.contentView.children).toHaveLength(1);
    window.webContents.emit('did-start-navigation', { isMainFrame: true, isSameDocument: false });
    expect(window.contentView.children).toEqual([]);
    await pages.show({ url: PAGE, reload_seconds: null });
    window.webContents.emit('render-process-gone', fakeEvent(), { reason: 'crashed' });
    expect(window.contentView.children).toEqual([]);
  });

  it('replaces one page by the next in a fresh view', async () => {
    await pages.show({ url: PAGE, reload_seconds: null });
    const first = view();
    await pages.show({ url: 'http://intranet.test/', reload_seconds: null });
    expect(first.webContents.closed).toBe(true);
    expect(view()).not.toBe(first);
    expect(view().webContents.loadedUrls).toEqual(['http://intranet.test/']);
  });
});
