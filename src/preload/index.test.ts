import { beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { FakeElectron } from '../main/testing/fake-electron';
import type { BridgeMessage, PlayerState, WallboardBridge } from '../shared/bridge';
import { BRIDGE_CHANNELS, bridgeMethods } from '../shared/bridge';
import { emptyPlayerState, sampleNotification } from '../shared/testing/bridge-fixtures';

vi.mock('electron', async () => (await import('../main/testing/fake-electron')).createFakeElectron());

let electron: FakeElectron;
let bridge: WallboardBridge;

const STATE: PlayerState = emptyPlayerState();
const NOTIFICATION: BridgeMessage = {
  kind: 'notification',
  notification: sampleNotification({ sound_url: 'default' }),
  sound: { kind: 'default' },
};

beforeAll(async () => {
  electron = (await import('electron')) as unknown as FakeElectron;
  await import('./index');
  bridge = electron.contextBridge.exposed.get('wallboard') as WallboardBridge;
});

beforeEach(() => {
  electron.ipcRenderer.invoked.length = 0;
  electron.ipcRenderer.sentToMain.length = 0;
});

/** Main's next answer to an invoke (the fake's own answer is not a state). */
function answerWith(value: unknown): void {
  const invoke = vi.spyOn(electron.ipcRenderer, 'invoke') as unknown as MockInstance<
    (channel: string, ...args: unknown[]) => Promise<unknown>
  >;
  invoke.mockImplementationOnce(async (channel, ...args) => {
    electron.ipcRenderer.invoked.push({ channel, args });
    return value;
  });
}

/** What main is sent on the log channel. */
const logged = () =>
  electron.ipcRenderer.sentToMain
    .filter((sent) => sent.channel === BRIDGE_CHANNELS.log)
    .map((sent) => sent.args[0]);

describe('the preload', () => {
  it("exposes exactly the contract's methods as window.wallboard, and nothing else", () => {
    expect([...electron.contextBridge.exposed.keys()]).toEqual(['wallboard']);
    expect(Object.keys(bridge).sort()).toEqual([...bridgeMethods, 'onMessage'].sort());
    expect(Object.keys(bridge).sort()).toEqual([
      'checkFraming',
      'chooseService',
      'getState',
      'log',
      'onMessage',
      'reportFailure',
      'reportPlay',
      'reportShowing',
      'screenshotTaken',
      'serviceTime',
      'showWebPage',
    ]);
    expect(Object.values(bridge).every((value) => typeof value === 'function')).toBe(true);
    expect(Object.values(bridge)).not.toContain(electron.ipcRenderer);
  });

  it('carries each method on its channel: invoke for an answer, send for the others', async () => {
    answerWith(STATE);
    expect(await bridge.getState()).toEqual(STATE);
    bridge.reportShowing({ showing: 'board:b1' });
    bridge.log({ level: 'warn', message: 'slow' });
    expect(electron.ipcRenderer.invoked).toEqual([{ channel: BRIDGE_CHANNELS.getState, args: [] }]);
    expect(electron.ipcRenderer.sentToMain).toEqual([
      { channel: BRIDGE_CHANNELS.reportShowing, args: [{ showing: 'board:b1' }] },
      { channel: BRIDGE_CHANNELS.log, args: [{ level: 'warn', message: 'slow' }] },
    ]);
  });

  it("checks main's answer where it enters the renderer: bad items are dropped, a bad state refused", async () => {
    const playlist = {
      id: 'p1',
      name: 'p1',
      items: [{ type: 'board', board_id: 'b1', duration: -5 }],
      updated_at: '2026-11-21T07:00:00.000Z',
    };
    answerWith({ ...STATE, playlist });
    expect((await bridge.getState()).playlist?.items).toEqual([]);
    expect(logged()).toEqual([
      { level: 'warn', message: expect.stringContaining('skipped item 1 of the playlist: duration') },
    ]);

    answerWith({ ...STATE, stale: 'no' });
    await expect(bridge.getState()).rejects.toThrow("the device agent's answer to getState does not fit");
    expect(logged()[1]).toEqual({
      level: 'warn',
      message:
        'ignored an invalid bridge frame from the agent (the answer to getState): stale: Invalid input: expected boolean, received string',
    });
  });

  it('hands the page checked messages only, never the IPC event, until unsubscribed', () => {
    const received: unknown[][] = [];
    const unsubscribe = bridge.onMessage((...args: unknown[]) => received.push(args));
    electron.ipcRenderer.events.emit(BRIDGE_CHANNELS.message, { sender: 'ipc event' }, NOTIFICATION);
    electron.ipcRenderer.events.emit(BRIDGE_CHANNELS.message, { sender: 'ipc event' }, { kind: 'exec' });
    expect(received).toEqual([[NOTIFICATION]]);
    expect(logged()).toEqual([
      {
        level: 'warn',
        message: expect.stringContaining('ignored an invalid bridge frame from the agent (the exec message)'),
      },
    ]);
    unsubscribe();
    electron.ipcRenderer.events.emit(BRIDGE_CHANNELS.message, { sender: 'ipc event' }, NOTIFICATION);
    expect(received).toHaveLength(1);
    expect(electron.ipcRenderer.events.listenerCount(BRIDGE_CHANNELS.message)).toBe(0);
  });
});
