import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { WallboardBridge } from '../shared/bridge';
import { BRIDGE_CHANNELS } from '../shared/bridge';
import type { FakeElectron } from '../main/testing/fake-electron';

vi.mock('electron', async () => (await import('../main/testing/fake-electron')).createFakeElectron());

let electron: FakeElectron;
let bridge: WallboardBridge;

beforeAll(async () => {
  electron = (await import('electron')) as unknown as FakeElectron;
  await import('./index');
  bridge = electron.contextBridge.exposed.get('wallboard') as WallboardBridge;
});

describe('the preload', () => {
  it('exposes exactly the bridge contract as window.wallboard, and nothing else', () => {
    expect([...electron.contextBridge.exposed.keys()]).toEqual(['wallboard']);
    expect(Object.keys(bridge).sort()).toEqual(['getState', 'log', 'onMessage', 'reportShowing']);
    expect(Object.values(bridge).every((value) => typeof value === 'function')).toBe(true);
    expect(Object.values(bridge)).not.toContain(electron.ipcRenderer);
  });

  it('carries each method on its BRIDGE_CHANNELS channel', async () => {
    await bridge.getState();
    bridge.reportShowing({ showing: 'board:b1' });
    bridge.log({ level: 'warn', message: 'slow' });
    expect(electron.ipcRenderer.invoked).toEqual([{ channel: BRIDGE_CHANNELS.getState, args: [] }]);
    expect(electron.ipcRenderer.sentToMain).toEqual([
      { channel: BRIDGE_CHANNELS.reportShowing, args: [{ showing: 'board:b1' }] },
      { channel: BRIDGE_CHANNELS.log, args: [{ level: 'warn', message: 'slow' }] },
    ]);
  });

  it('hands the page the message only, never the IPC event, until unsubscribed', () => {
    const received: unknown[][] = [];
    const unsubscribe = bridge.onMessage((...args: unknown[]) => received.push(args));
    const message = { kind: 'notification' };
    electron.ipcRenderer.events.emit(BRIDGE_CHANNELS.message, { sender: 'ipc event' }, message);
    expect(received).toEqual([[message]]);
    unsubscribe();
    electron.ipcRenderer.events.emit(BRIDGE_CHANNELS.message, { sender: 'ipc event' }, message);
    expect(received).toHaveLength(1);
    expect(electron.ipcRenderer.events.listenerCount(BRIDGE_CHANNELS.message)).toBe(0);
  });
});
