import { beforeEach, describe, expect, it } from 'vitest';
import type { BridgeHost } from '../agent/bridge-host';
import {
  BRIDGE_CHANNELS,
  bridgeMethods,
  isAskMethod,
  type BridgeMessage,
  type PlayerState,
} from '../shared/bridge';
import { wireBridge, type BridgeWindow } from './ipc';
import { FakeIpcMain, FakeWebContents } from './testing/fake-electron';
import { emptyPlayerState } from '../shared/testing/bridge-fixtures';

const STATE: PlayerState = emptyPlayerState('screen-1');

function setup() {
  const ipcMain = new FakeIpcMain();
  const webContents = new FakeWebContents();
  const window: BridgeWindow & { destroyed: boolean } = {
    destroyed: false,
    isDestroyed: () => window.destroyed,
    webContents,
  };
  const listeners = new Set<(message: BridgeMessage) => void>();
  const host = {
    showing: [] as string[],
    logs: [] as unknown[],
    getState: () => STATE,
    onMessage(listener: (message: BridgeMessage) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    reportShowing(report: { showing: string }) {
      host.showing.push(report.showing);
    },
    reportFailure: () => undefined,
    log(entry: unknown) {
      host.logs.push(entry);
    },
    chooseService: () => undefined,
    reportPlay: () => undefined,
    screenshotTaken: () => undefined,
    checkFraming: ({ url }: { url: string }) => ({ url, verdict: 'allowed' as const, detail: '' }),
    showWebPage: () => ({ shown: false }),
    serviceTime: () => ({ now: null }),
  } satisfies BridgeHost & Record<string, unknown>;
  const warnings: string[] = [];
  const changes: string[] = [];
  const unwire = wireBridge({
    ipcMain,
    window,
    host,
    log: { info: () => undefined, warn: (m) => warnings.push(m), error: () => undefined },
    onShowingChanged: (showing) => changes.push(showing),
  });
  const trusted = { sender: webContents, senderFrame: { ...webContents.mainFrame } };
  const emit = (message: BridgeMessage) => {
    for (const listener of listeners) listener(message);
  };
  return { ipcMain, window, webContents, host, warnings, changes, unwire, trusted, emit, listeners };
}

let t: ReturnType<typeof setup>;
beforeEach(() => {
  t = setup();
});

describe('the bridge over IPC', () => {
  it('wires a channel per method of the contract: a handler for an answer, a listener for the others', () => {
    expect([...t.ipcMain.handlers.keys()]).toEqual(
      bridgeMethods.filter(isAskMethod).map((m) => BRIDGE_CHANNELS[m]),
    );
    expect([...t.ipcMain.listeners.keys()]).toEqual(
      bridgeMethods.filter((m) => !isAskMethod(m)).map((m) => BRIDGE_CHANNELS[m]),
    );
    expect(Object.values(BRIDGE_CHANNELS)).toEqual([
      'wallboard:get-state',
      'wallboard:report-showing',
      'wallboard:report-failure',
      'wallboard:log',
      'wallboard:choose-service',
      'wallboard:report-play',
      'wallboard:screenshot-taken',
      'wallboard:check-framing',
      'wallboard:show-web-page',
      'wallboard:service-time',
      'wallboard:message',
    ]);
  });

  it('answers getState and forwards valid reports and logs from our page', async () => {
    await expect(t.ipcMain.invoke(BRIDGE_CHANNELS.getState, t.trusted)).resolves.toEqual(STATE);
    t.ipcMain.send(BRIDGE_CHANNELS.reportShowing, t.trusted, { showing: 'board:b1' });
    t.ipcMain.send(BRIDGE_CHANNELS.reportShowing, t.trusted, { showing: 'board:b1' });
    t.ipcMain.send(BRIDGE_CHANNELS.reportShowing, t.trusted, { showing: 'image:x' });
    t.ipcMain.send(BRIDGE_CHANNELS.log, t.trusted, { level: 'warn', message: 'slow chart' });
    expect(t.host.showing).toEqual(['board:b1', 'board:b1', 'image:x']);
    expect(t.changes).toEqual(['board:b1', 'image:x']);
    expect(t.host.logs).toEqual([{ level: 'warn', message: 'slow chart' }]);
    expect(t.warnings).toEqual([]);
  });

  it('refuses every message from a foreign frame, window or page', async () => {
    const main = t.webContents.mainFrame;
    const foreign = [
      { sender: t.webContents, senderFrame: { ...main, routingId: 2, url: 'app://wallboard/index.html' } },
      { sender: t.webContents, senderFrame: { ...main, url: 'https://evil.example/app://wallboard/' } },
      { sender: t.webContents, senderFrame: { ...main, url: 'file:///etc/passwd' } },
      { sender: t.webContents, senderFrame: null },
      { sender: new FakeWebContents(), senderFrame: { ...main } },
    ];
    for (const event of foreign) {
      await expect(t.ipcMain.invoke(BRIDGE_CHANNELS.getState, event)).rejects.toThrow('refused');
      t.ipcMain.send(BRIDGE_CHANNELS.reportShowing, event, { showing: 'board:evil' });
      t.ipcMain.send(BRIDGE_CHANNELS.log, event, { level: 'error', message: 'evil' });
    }
    expect(t.host.showing).toEqual([]);
    expect(t.host.logs).toEqual([]);
    expect(t.warnings).toHaveLength(foreign.length * 3);
    expect(t.warnings[0]).toMatch(/refused IPC on wallboard:get-state .*not the main frame/);
    expect(t.warnings[3]).toMatch(/outside app:\/\/wallboard/);
  });

  it('refuses payloads that break the contract', async () => {
    for (const payload of [
      undefined,
      'board:b1',
      { showing: 42 },
      { showing: 'x'.repeat(2049) },
      { showing: 'board:b1', token: 'sneaky' },
    ]) {
      t.ipcMain.send(BRIDGE_CHANNELS.reportShowing, t.trusted, payload);
    }
    for (const payload of [
      { level: 'debug', message: 'x' },
      { level: 'info' },
      { level: 'info', message: 'x'.repeat(4097) },
    ]) {
      t.ipcMain.send(BRIDGE_CHANNELS.log, t.trusted, payload);
    }
    // getState takes nothing.
    await expect(t.ipcMain.invoke(BRIDGE_CHANNELS.getState, t.trusted, { tag: 'other' })).rejects.toThrow(
      'refused',
    );
    expect(t.host.showing).toEqual([]);
    expect(t.host.logs).toEqual([]);
    expect(t.changes).toEqual([]);
    expect(t.warnings).toHaveLength(9);
    expect(t.warnings.every((w) => w.startsWith('refused an invalid payload'))).toBe(true);
  });

  it("sends the agent's messages to the window, and stops once the window is gone or unwired", () => {
    const message: BridgeMessage = { kind: 'state', state: STATE };
    t.emit(message);
    expect(t.webContents.sent).toEqual([{ channel: BRIDGE_CHANNELS.message, args: [message] }]);
    t.window.destroyed = true;
    t.emit(message);
    expect(t.webContents.sent).toHaveLength(1);
    t.unwire();
    expect(t.listeners.size).toBe(0);
    expect(t.ipcMain.handlers.size).toBe(0);
    expect([...t.ipcMain.listeners.values()].every((set) => set.size === 0)).toBe(true);
  });
});
