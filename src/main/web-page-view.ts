import type {
  BrowserWindow,
  Session,
  WebContents,
  WebContentsView,
  WebContentsViewConstructorOptions,
} from 'electron';
import type { Clock, Logger, TimerHandle } from '../agent/ports';
import type { WebPageRequest } from '../shared/web-content';

/**
 * The session full-screen web pages run in: their own, in memory only (no `persist:` prefix), so
 * nothing they store outlives the app and nothing of the player's is theirs to read.
 */
export const WEB_PAGE_PARTITION = 'web-content';

type ViewClass = new (options: WebContentsViewConstructorOptions) => WebContentsView;
type SessionLike = Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'on'>;
type ContentsLike = Pick<
  WebContents,
  'on' | 'setWindowOpenHandler' | 'loadURL' | 'close' | 'insertCSS' | 'isDestroyed'
>;
type ViewLike = { webContents: ContentsLike } & Pick<WebContentsView, 'setBounds' | 'setBackgroundColor'>;
type WindowLike = Pick<BrowserWindow, 'getContentSize' | 'on' | 'isDestroyed'> & {
  contentView: Pick<BrowserWindow['contentView'], 'addChildView' | 'removeChildView'>;
  webContents: Pick<WebContents, 'on'>;
};

export interface WebPageViewDeps {
  WebContentsView: ViewClass;
  session: { fromPartition(partition: string): SessionLike };
  window: WindowLike;
  clock: Clock;
  log: Logger;
}

/** What every full-screen web page runs with: a sandboxed renderer, no node, no preload. */
export const WEB_PAGE_PREFERENCES: WebContentsViewConstructorOptions['webPreferences'] = {
  partition: WEB_PAGE_PARTITION,
  sandbox: true,
  contextIsolation: true,
  nodeIntegration: false,
  nodeIntegrationInSubFrames: false,
  nodeIntegrationInWorker: false,
  webviewTag: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  javascript: true,
  navigateOnDragDrop: false,
  spellcheck: false,
  backgroundThrottling: false,
  autoplayPolicy: 'no-user-gesture-required',
};

interface Shown {
  view: ViewLike;
  url: string;
  /** Where its main frame may go: the item's origin, and where the loads we started were redirected. */
  origins: Set<string>;
  /** A load we started (the item, a reload) is under way: its redirects are the server's to decide. */
  loading: boolean;
  timer: TimerHandle | null;
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** A URL for the log without its query or fragment, which may hold secrets. */
function describe(url: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  return parsed ? `${parsed.protocol}//${parsed.host}${parsed.pathname}` : url.slice(0, 100);
}

/**
 * Full-screen web pages drawn by the shell itself (the agent's `webPages` port), for the sites
 * that refuse to be framed: each in a WebContentsView laid over the whole window, in a session of
 * its own that grants no permission and downloads nothing, its main frame kept to the item's
 * origin, without new windows or <webview>, reloaded every `reload_seconds`. The view covers the
 * player's page, notifications included, until the item leaves (`url: null`).
 */
export class WebPageViews {
  private shown: Shown | null = null;
  private session: SessionLike | null = null;

  constructor(private readonly deps: WebPageViewDeps) {
    deps.window.on('resize', () => this.fit());
    // The player's page reloads (self-healing, a remote command) or crashes: the page it asked for
    // is no longer its to cover the new one with; it asks again if it still wants it.
    deps.window.webContents.on('did-start-navigation', (details) => {
      if (details.isMainFrame && !details.isSameDocument) this.takeDown();
    });
    deps.window.webContents.on('render-process-gone', () => this.takeDown());
  }

  /** Shows the page (true), or takes the one shown down (`url: null`: false, nothing shown). */
  show(request: WebPageRequest): Promise<boolean> {
    this.takeDown();
    const { url, reload_seconds: reloadSeconds } = request;
    if (url === null || this.deps.window.isDestroyed()) return Promise.resolve(false);
    const origin = originOf(url);
    if (origin === null) return Promise.resolve(false);
    const view = new this.deps.WebContentsView({ webPreferences: { ...WEB_PAGE_PREFERENCES } });
    const shown: Shown = { view, url, origins: new Set([origin]), loading: false, timer: null };
    this.shown = shown;
    this.hardenSession();
    this.guard(shown);
    view.setBackgroundColor('#ffffff');
    this.deps.window.contentView.addChildView(view as WebContentsView);
    this.fit();
    this.load(shown);
    if (reloadSeconds !== null) {
      const reload = () => {
        if (this.shown !== shown) return;
        this.load(shown);
        shown.timer = this.deps.clock.setTimeout(reload, reloadSeconds * 1000);
      };
      shown.timer = this.deps.clock.setTimeout(reload, reloadSeconds * 1000);
    }
    return Promise.resolve(true);
  }

  /** The page shown, if any (for the tests and the log). */
  get current(): string | null {
    return this.shown?.url ?? null;
  }

  private takeDown(): void {
    const shown = this.shown;
    if (!shown) return;
    this.shown = null;
    shown.timer?.cancel();
    if (!this.deps.window.isDestroyed())
      this.deps.window.contentView.removeChildView(shown.view as WebContentsView);
    // A removed view's contents live on until closed.
    if (!shown.view.webContents.isDestroyed()) shown.view.webContents.close();
  }

  private fit(): void {
    if (!this.shown || this.deps.window.isDestroyed()) return;
    const [width = 0, height = 0] = this.deps.window.getContentSize();
    this.shown.view.setBounds({ x: 0, y: 0, width, height });
  }

  private load(shown: Shown): void {
    shown.loading = true;
    shown.view.webContents.loadURL(shown.url).catch((error: unknown) => {
      // A later reload tries again; the page shows the browser's error meanwhile.
      if (this.shown === shown)
        this.deps.log.warn(`web page ${describe(shown.url)} did not load: ${String(error)}`);
    });
  }

  /** Once per app: the pages' session grants nothing and downloads nothing. */
  private hardenSession(): void {
    if (this.session) return;
    const session = this.deps.session.fromPartition(WEB_PAGE_PARTITION);
    this.session = session;
    const { log } = this.deps;
    session.setPermissionRequestHandler((_contents, permission, callback, details) => {
      log.warn(
        `refused the permission "${permission}" asked by the web page ${describe(details.requestingUrl)}`,
      );
      callback(false);
    });
    session.setPermissionCheckHandler(() => false);
    session.on('will-download', (event, item) => {
      event.preventDefault();
      log.warn(`refused a download of ${describe(item.getURL())} by a web page`);
    });
  }

  /** The view's contents: its main frame kept to its origin, no new windows, no <webview>. */
  private guard(shown: Shown): void {
    const contents = shown.view.webContents;
    const { log } = this.deps;
    const keep = (event: { url: string; isMainFrame: boolean; preventDefault(): void }, what: string) => {
      if (!event.isMainFrame) return;
      const origin = originOf(event.url);
      if (origin !== null && shown.origins.has(origin)) return;
      event.preventDefault();
      log.warn(
        `refused the web page's ${what} to ${describe(event.url)}: not ${describe(shown.url)}'s origin`,
      );
    };
    contents.on('will-navigate', (event) => keep(event, 'navigation'));
    contents.on('will-redirect', (event) => {
      // The item's own URL (or a reload) may land elsewhere: the operator chose it, its server says where.
      const origin = originOf(event.url);
      if (event.isMainFrame && shown.loading && origin !== null) shown.origins.add(origin);
      keep(event, 'redirect');
    });
    contents.on('did-finish-load', () => (shown.loading = false));
    contents.on('did-fail-load', (_event, code, description, url, isMainFrame) => {
      if (!isMainFrame) return;
      shown.loading = false;
      log.warn(`web page ${describe(url)} failed to load: ${description} (${code})`);
    });
    contents.on('will-attach-webview', (event) => {
      event.preventDefault();
      log.warn('refused a <webview> in a web page');
    });
    contents.setWindowOpenHandler(({ url }) => {
      log.warn(`refused to open a window for ${describe(url)} from a web page`);
      return { action: 'deny' };
    });
    contents.on('render-process-gone', (_event, details) => {
      log.warn(
        `the web page ${describe(shown.url)} crashed (${details.reason}); it loads again at its next reload or turn`,
      );
    });
    // A wall screen has no pointer to show. A literal, as only constant CSS may be inserted.
    contents.on('dom-ready', () => {
      contents.insertCSS('* { cursor: none !important; }').catch(() => undefined);
    });
  }
}
