import type { IpcMainEvent, IpcMainInvokeEvent, WebContents } from 'electron';
import { callHost, type BridgeHost } from '../agent/bridge-host';
import type { Logger } from '../agent/ports';
import {
  BRIDGE_CHANNELS,
  bridgeMethods,
  isAskMethod,
  parseRequest,
  type BridgeMethod,
  type BridgeRequest,
  type ShowingReport,
} from '../shared/bridge';
import { describeIssues } from '../shared/issues';
import { APP_ORIGIN } from './protocols';

type Frame = { url: string; processId: number; routingId: number };
type SenderEvent = { sender: unknown; senderFrame: Frame | null };

/** What the bridge needs of the window: its contents, to check senders and send messages. */
export interface BridgeWindow {
  isDestroyed(): boolean;
  webContents: Pick<WebContents, 'send' | 'isDestroyed'> & { mainFrame: Frame };
}

type Listener = (event: IpcMainEvent, payload: unknown) => void;

/** What the bridge uses of ipcMain (the real one, or a test's). */
export interface IpcMainLike {
  handle(channel: string, handler: (event: IpcMainInvokeEvent, payload: unknown) => unknown): void;
  removeHandler(channel: string): void;
  on(channel: string, listener: Listener): unknown;
  removeListener(channel: string, listener: Listener): unknown;
}

export interface BridgeOptions {
  ipcMain: IpcMainLike;
  window: BridgeWindow;
  host: BridgeHost;
  log: Logger;
  /** Called when the renderer reports that something else is on screen now. */
  onShowingChanged?: (showing: string) => void;
}

const PAGE_PREFIX = `${APP_ORIGIN}/`;

/**
 * After GitHub Desktop's trusted-sender check and the Electron security checklist: a message
 * counts only from the main frame of our own window showing our own page, never from a subframe,
 * another window, or a page that somehow navigated elsewhere.
 */
export function refusalOf(event: SenderEvent, window: BridgeWindow): string | null {
  if (window.isDestroyed() || event.sender !== window.webContents) return 'not our window';
  const frame = event.senderFrame;
  if (!frame) return 'the frame is gone';
  const main = window.webContents.mainFrame;
  if (frame.processId !== main.processId || frame.routingId !== main.routingId) return 'not the main frame';
  if (!frame.url.startsWith(PAGE_PREFIX)) return `a page outside ${APP_ORIGIN}`;
  return null;
}

/**
 * Carries the bridge contract over IPC, a handler per method of its table (invoke for a method
 * the renderer waits on, send for the others); returns a function that unwires it. Every call is
 * checked here, where it enters main: its sender, then its request against the contract.
 */
export function wireBridge(options: BridgeOptions): () => void {
  const { ipcMain, window, host, log, onShowingChanged } = options;
  let showing: string | null = null;

  const accept = (event: SenderEvent, channel: string): boolean => {
    const refusal = refusalOf(event, window);
    if (refusal === null) return true;
    log.warn(`refused IPC on ${channel} from ${event.senderFrame?.url ?? 'an unknown frame'}: ${refusal}`);
    return false;
  };

  /** The call's request, if it may go through: from our page, and fitting the contract. */
  const admit = <M extends BridgeMethod>(
    method: M,
    event: SenderEvent,
    payload: unknown,
  ): { request: BridgeRequest<M> } | null => {
    const channel = BRIDGE_CHANNELS[method];
    if (!accept(event, channel)) return null;
    const parsed = parseRequest(method, payload);
    if (parsed.success) return { request: parsed.data };
    log.warn(`refused an invalid payload on ${channel}: ${describeIssues(parsed.error)}`);
    return null;
  };

  // Self-healing recycles a heavy renderer between two things on screen, not in the middle of one.
  const noticeShowing = (report: ShowingReport): void => {
    if (report.showing === showing) return;
    showing = report.showing;
    onShowingChanged?.(report.showing);
  };

  const listeners = new Map<string, Listener>();
  for (const method of bridgeMethods) {
    const channel = BRIDGE_CHANNELS[method];
    if (isAskMethod(method)) {
      ipcMain.handle(channel, (event, payload) => {
        const call = admit(method, event, payload);
        if (!call) throw new Error('refused');
        return callHost(host, method, call.request);
      });
      continue;
    }
    const listener: Listener = (event, payload) => {
      const call = admit(method, event, payload);
      if (!call) return;
      callHost(host, method, call.request);
      if (method === 'reportShowing') noticeShowing(call.request as ShowingReport);
    };
    ipcMain.on(channel, listener);
    listeners.set(channel, listener);
  }

  const unsubscribe = host.onMessage((message) => {
    if (window.isDestroyed() || window.webContents.isDestroyed()) return;
    window.webContents.send(BRIDGE_CHANNELS.message, message);
  });

  return () => {
    unsubscribe();
    for (const method of bridgeMethods.filter(isAskMethod)) ipcMain.removeHandler(BRIDGE_CHANNELS[method]);
    for (const [channel, listener] of listeners) ipcMain.removeListener(channel, listener);
  };
}
