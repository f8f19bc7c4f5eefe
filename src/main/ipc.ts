import type { IpcMainEvent, IpcMainInvokeEvent, WebContents } from 'electron';
import type { z } from 'zod';
import type { BridgeHost } from '../agent/bridge-host';
import type { Logger } from '../agent/ports';
import {
  BRIDGE_CHANNELS,
  rendererLogSchema,
  showingReportSchema,
  type BridgeMessage,
  type PlayerState,
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

/** What the bridge uses of ipcMain (the real one, or a test's). */
export interface IpcMainLike {
  handle(channel: string, handler: (event: IpcMainInvokeEvent) => unknown): void;
  removeHandler(channel: string): void;
  on(channel: string, listener: (event: IpcMainEvent, payload: unknown) => void): unknown;
  removeListener(channel: string, listener: (event: IpcMainEvent, payload: unknown) => void): unknown;
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

/** Carries the bridge contract over IPC; returns a function that unwires it. */
export function wireBridge(options: BridgeOptions): () => void {
  const { ipcMain, window, host, log, onShowingChanged } = options;
  let showing: string | null = null;

  const accept = (event: SenderEvent, channel: string): boolean => {
    const refusal = refusalOf(event, window);
    if (refusal === null) return true;
    log.warn(`refused IPC on ${channel} from ${event.senderFrame?.url ?? 'an unknown frame'}: ${refusal}`);
    return false;
  };

  const validated = <T>(schema: z.ZodType<T>, payload: unknown, channel: string): T | null => {
    const parsed = schema.safeParse(payload);
    if (parsed.success) return parsed.data;
    log.warn(`refused an invalid payload on ${channel}: ${describeIssues(parsed.error)}`);
    return null;
  };

  ipcMain.handle(BRIDGE_CHANNELS.getState, (event: IpcMainInvokeEvent): PlayerState => {
    if (!accept(event, BRIDGE_CHANNELS.getState)) throw new Error('refused');
    return host.getState();
  });

  const onShowing = (event: IpcMainEvent, payload: unknown): void => {
    if (!accept(event, BRIDGE_CHANNELS.reportShowing)) return;
    const report = validated(showingReportSchema, payload, BRIDGE_CHANNELS.reportShowing);
    if (!report) return;
    host.reportShowing(report);
    if (report.showing !== showing) {
      showing = report.showing;
      onShowingChanged?.(report.showing);
    }
  };
  ipcMain.on(BRIDGE_CHANNELS.reportShowing, onShowing);

  const onLog = (event: IpcMainEvent, payload: unknown): void => {
    if (!accept(event, BRIDGE_CHANNELS.log)) return;
    const entry = validated(rendererLogSchema, payload, BRIDGE_CHANNELS.log);
    if (entry) host.log(entry);
  };
  ipcMain.on(BRIDGE_CHANNELS.log, onLog);

  const unsubscribe = host.onMessage((message: BridgeMessage) => {
    if (window.isDestroyed() || window.webContents.isDestroyed()) return;
    window.webContents.send(BRIDGE_CHANNELS.message, message);
  });

  return () => {
    unsubscribe();
    ipcMain.removeHandler(BRIDGE_CHANNELS.getState);
    ipcMain.removeListener(BRIDGE_CHANNELS.reportShowing, onShowing);
    ipcMain.removeListener(BRIDGE_CHANNELS.log, onLog);
  };
}
