import { EventEmitter } from 'node:events';
import type { BrowserWindowConstructorOptions, WebContentsViewConstructorOptions } from 'electron';

/**
 * Just enough of the electron module for the shell's tests (no Electron binary can be had here):
 * each fake records what the shell did to it and can emit what Electron would.
 */

export interface FakeEvent {
  defaultPrevented: boolean;
  preventDefault(): void;
}

export function fakeEvent(): FakeEvent {
  const event = {
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true;
    },
  };
  return event;
}

export interface FakeFrame {
  url: string;
  processId: number;
  routingId: number;
}

type WindowOpenHandler = (details: { url: string }) => { action: string };

export class FakeWebContents extends EventEmitter {
  mainFrame: FakeFrame = { url: 'app://wallboard/index.html', processId: 7, routingId: 1 };
  readonly sent: { channel: string; args: unknown[] }[] = [];
  readonly css: string[] = [];
  windowOpenHandler: WindowOpenHandler | null = null;
  reloads = 0;
  crashes = 0;
  destroyed = false;
  osProcessId = 4242;
  /** Where loadURL was asked to go, in order, and whether close() was called (a view's contents). */
  readonly loadedUrls: string[] = [];
  closed = false;
  /** The session the contents belong to: a view's partition. */
  session: FakeSession | null = null;

  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  setWindowOpenHandler(handler: WindowOpenHandler): void {
    this.windowOpenHandler = handler;
  }
  insertCSS(css: string): Promise<string> {
    this.css.push(css);
    return Promise.resolve(`css-${this.css.length}`);
  }
  reload(): void {
    this.reloads += 1;
  }
  loadURL(url: string): Promise<void> {
    this.loadedUrls.push(url);
    return Promise.resolve();
  }
  close(): void {
    this.closed = true;
    this.destroyed = true;
  }
  /** What capturePage sees: the page's PNG, or null for a window that shows nothing. */
  page: Uint8Array | null = null;
  capturePage(): Promise<{ isEmpty(): boolean; toPNG(): Buffer }> {
    const png = this.page;
    return Promise.resolve({ isEmpty: () => png === null, toPNG: () => Buffer.from(png ?? []) });
  }
  forcefullyCrashRenderer(): void {
    this.crashes += 1;
  }
  getOSProcessId(): number {
    return this.osProcessId;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  /** Emits `name` with a preventable event; true when a listener prevented it. */
  attempt(name: string, ...args: unknown[]): boolean {
    const event = fakeEvent();
    this.emit(name, event, ...args);
    return event.defaultPrevented;
  }
}

export class FakeApp extends EventEmitter {
  isPackaged = false;
  paths: Record<string, string> = {};
  appPath = '/app';
  version = '0.1.0';
  name = 'Wallboard';
  lockGranted = true;
  hardwareAccelerationDisabled = false;
  readonly relaunches: ({ args?: string[] } | undefined)[] = [];
  readonly exits: number[] = [];
  readonly loginItems: unknown[] = [];
  quitCalls = 0;
  metrics: { pid: number; type: string; memory: { workingSetSize: number; peakWorkingSetSize: number } }[] =
    [];

  /** Chromium switches appended before `ready`, as `[name, value]`. */
  readonly switches: [string, string | undefined][] = [];
  readonly commandLine = {
    appendSwitch: (name: string, value?: string): void => {
      this.switches.push([name, value]);
    },
  };

  requestSingleInstanceLock(): boolean {
    return this.lockGranted;
  }
  whenReady(): Promise<void> {
    return Promise.resolve();
  }
  getPath(name: string): string {
    const path = this.paths[name];
    if (path === undefined) throw new Error(`fake app: no path "${name}"`);
    return path;
  }
  setPath(name: string, path: string): void {
    this.paths[name] = path;
  }
  getAppPath(): string {
    return this.appPath;
  }
  getVersion(): string {
    return this.version;
  }
  getName(): string {
    return this.name;
  }
  relaunch(options?: { args?: string[] }): void {
    this.relaunches.push(options);
  }
  exit(code = 0): void {
    this.exits.push(code);
  }
  /** Like Electron: 'before-quit' first, which a listener may prevent. */
  quit(): void {
    this.quitCalls += 1;
    this.emit('before-quit', fakeEvent());
  }
  disableHardwareAcceleration(): void {
    this.hardwareAccelerationDisabled = true;
  }
  setLoginItemSettings(settings: unknown): void {
    this.loginItems.push(settings);
  }
  getAppMetrics(): FakeApp['metrics'] {
    return this.metrics;
  }
}

type Listener = (...args: never[]) => unknown;

export class FakeIpcMain {
  readonly handlers = new Map<string, Listener>();
  readonly listeners = new Map<string, Set<Listener>>();

  handle(channel: string, handler: Listener): void {
    if (this.handlers.has(channel)) throw new Error(`a handler for ${channel} exists already`);
    this.handlers.set(channel, handler);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  on(channel: string, listener: Listener): this {
    this.listeners.set(channel, new Set([...(this.listeners.get(channel) ?? []), listener]));
    return this;
  }
  removeListener(channel: string, listener: Listener): this {
    this.listeners.get(channel)?.delete(listener);
    return this;
  }
  removeAllListeners(channel: string): this {
    this.listeners.delete(channel);
    return this;
  }
  /** ipcRenderer.invoke as seen from main: a thrown error rejects. */
  async invoke(channel: string, event: unknown, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    return (handler as (...all: unknown[]) => unknown)(event, ...args);
  }
  /** ipcRenderer.send as seen from main. */
  send(channel: string, event: unknown, ...args: unknown[]): void {
    for (const listener of this.listeners.get(channel) ?? []) {
      (listener as (...all: unknown[]) => unknown)(event, ...args);
    }
  }
}

export type ProtocolHandler = (request: Request) => Promise<Response>;
type HeadersListener = (
  details: { url: string; resourceType?: string; responseHeaders?: Record<string, string[]> },
  callback: (response: { responseHeaders?: Record<string, string[]> }) => void,
) => void;
type PermissionRequest = (
  contents: unknown,
  permission: string,
  callback: (granted: boolean) => void,
  details: { requestingUrl: string },
) => void;
type PermissionCheck = (contents: unknown, permission: string, origin: string, details: unknown) => boolean;

export class FakeSession extends EventEmitter {
  headersListener: HeadersListener | null = null;
  permissionRequest: PermissionRequest | null = null;
  permissionCheck: PermissionCheck | null = null;
  readonly webRequest = {
    onHeadersReceived: (listener: HeadersListener) => {
      this.headersListener = listener;
    },
  };
  setPermissionRequestHandler(handler: PermissionRequest): void {
    this.permissionRequest = handler;
  }
  setPermissionCheckHandler(handler: PermissionCheck): void {
    this.permissionCheck = handler;
  }
}

/** Encrypts by reversing and tagging, so a test can tell stored text from encrypted text. */
export class FakeSafeStorage {
  available = true;
  backend = 'gnome_libsecret';
  isEncryptionAvailable(): boolean {
    return this.available;
  }
  getSelectedStorageBackend(): string {
    return this.backend;
  }
  encryptString(text: string): Buffer {
    return Buffer.from(`enc:${[...text].reverse().join('')}`, 'utf8');
  }
  decryptString(data: Buffer): string {
    const text = data.toString('utf8');
    if (!text.startsWith('enc:')) throw new Error('not encrypted by this fake');
    return [...text.slice(4)].reverse().join('');
  }
}

export function createFakeElectron() {
  const app = new FakeApp();
  const windows: FakeBrowserWindow[] = [];

  class FakeBrowserWindow extends EventEmitter {
    readonly webContents = new FakeWebContents();
    /** The views laid over the window's page (WebContentsView), bottom first. */
    readonly contentView = {
      children: [] as FakeWebContentsView[],
      addChildView: (view: FakeWebContentsView) => void this.contentView.children.push(view),
      removeChildView: (view: FakeWebContentsView) => {
        this.contentView.children = this.contentView.children.filter((child) => child !== view);
      },
    };
    contentSize: [number, number] = [1920, 1080];
    shown = false;
    destroyed = false;
    focused = false;
    menu: unknown = undefined;
    loadedUrl: string | null = null;

    constructor(readonly options: BrowserWindowConstructorOptions) {
      super();
      windows.push(this);
      app.emit('web-contents-created', fakeEvent(), this.webContents);
    }
    show(): void {
      this.shown = true;
    }
    focus(): void {
      this.focused = true;
    }
    isDestroyed(): boolean {
      return this.destroyed;
    }
    setMenu(menu: unknown): void {
      this.menu = menu;
    }
    loadURL(url: string): Promise<void> {
      this.loadedUrl = url;
      return Promise.resolve();
    }
    getContentSize(): [number, number] {
      return this.contentSize;
    }
  }

  /** Sessions by partition name, made on first use as Electron's are. */
  const partitions = new Map<string, FakeSession>();
  const fromPartition = (partition: string): FakeSession => {
    const found = partitions.get(partition) ?? new FakeSession();
    partitions.set(partition, found);
    return found;
  };
  const views: FakeWebContentsView[] = [];

  class FakeWebContentsView {
    readonly webContents = new FakeWebContents();
    bounds = { x: 0, y: 0, width: 0, height: 0 };
    backgroundColor: string | null = null;

    constructor(readonly options: WebContentsViewConstructorOptions = {}) {
      views.push(this);
      const partition = options.webPreferences?.partition;
      this.webContents.mainFrame = { url: 'about:blank', processId: 8 + views.length, routingId: 1 };
      this.webContents.session = partition === undefined ? null : fromPartition(partition);
      app.emit('web-contents-created', fakeEvent(), this.webContents);
    }
    setBounds(bounds: { x: number; y: number; width: number; height: number }): void {
      this.bounds = bounds;
    }
    setBackgroundColor(color: string): void {
      this.backgroundColor = color;
    }
  }

  const protocol = {
    privileged: [] as unknown[],
    handlers: new Map<string, ProtocolHandler>(),
    registerSchemesAsPrivileged(schemes: unknown[]) {
      protocol.privileged.push(...schemes);
    },
    handle(scheme: string, handler: ProtocolHandler) {
      protocol.handlers.set(scheme, handler);
    },
  };
  const powerSaveBlocker = {
    started: [] as string[],
    stopped: [] as number[],
    start(type: string) {
      powerSaveBlocker.started.push(type);
      return powerSaveBlocker.started.length;
    },
    stop(id: number) {
      powerSaveBlocker.stopped.push(id);
    },
  };
  const ipcRenderer = {
    invoked: [] as { channel: string; args: unknown[] }[],
    sentToMain: [] as { channel: string; args: unknown[] }[],
    events: new EventEmitter(),
    invoke(channel: string, ...args: unknown[]) {
      ipcRenderer.invoked.push({ channel, args });
      return Promise.resolve({ channel });
    },
    send(channel: string, ...args: unknown[]) {
      ipcRenderer.sentToMain.push({ channel, args });
    },
    on(channel: string, listener: (...args: unknown[]) => void) {
      ipcRenderer.events.on(channel, listener);
      return ipcRenderer;
    },
    removeListener(channel: string, listener: (...args: unknown[]) => void) {
      ipcRenderer.events.removeListener(channel, listener);
      return ipcRenderer;
    },
  };
  const contextBridge = {
    exposed: new Map<string, unknown>(),
    exposeInMainWorld(key: string, api: unknown) {
      contextBridge.exposed.set(key, api);
    },
  };

  const electron = {
    app,
    BrowserWindow: FakeBrowserWindow,
    windows,
    WebContentsView: FakeWebContentsView,
    views,
    ipcMain: new FakeIpcMain(),
    protocol,
    session: { defaultSession: new FakeSession(), fromPartition },
    powerSaveBlocker,
    safeStorage: new FakeSafeStorage(),
    ipcRenderer,
    contextBridge,
  };
  // Electron's module is CommonJS: a default import (electron-store's) gets the whole of it.
  return Object.assign(electron, { default: electron });
}

export type FakeElectron = ReturnType<typeof createFakeElectron>;
export type FakeBrowserWindow = FakeElectron['windows'][number];
export type FakeWebContentsView = FakeElectron['views'][number];
