import { describe, expect, it } from 'vitest';
import { solidPng } from '../../service/testing/png';
import { CommandRunner } from '../agent/commands';
import { FakeClock, MemoryStore, recordingLogger, settle } from '../agent/testing/fakes';
import type { Command, CommandResult } from '../shared/command';
import { captureWindow, windowControls, type CommandWindow } from './capture';
import { FakeWebContents } from './testing/fake-electron';

function fakeWindow(): { window: CommandWindow; contents: FakeWebContents; closed: { value: boolean } } {
  const contents = new FakeWebContents();
  const closed = { value: false };
  const window = {
    isDestroyed: () => closed.value,
    webContents: contents as unknown as CommandWindow['webContents'],
  };
  return { window, contents, closed };
}

describe('capturing the kiosk window', () => {
  it('answers the PNG of what the window shows', async () => {
    const { window, contents } = fakeWindow();
    const png = solidPng(1920, 1080);
    contents.page = png;
    expect(Buffer.from(await captureWindow(window)).equals(png)).toBe(true);
  });

  it('says why when the window shows nothing or is gone', async () => {
    const { window, contents, closed } = fakeWindow();
    await expect(captureWindow(window)).rejects.toThrow('the window shows nothing (hidden or minimised?)');
    contents.page = solidPng(2, 2);
    closed.value = true;
    await expect(captureWindow(window)).rejects.toThrow('the window is gone');
  });
});

describe("the shell's controls for remote commands", () => {
  it('reload the window, restart the app, and store a capture through the agent', async () => {
    const { window, contents } = fakeWindow();
    let restarts = 0;
    const controls = windowControls(window, () => void restarts++);
    await controls.reload?.();
    await controls.restart?.();
    expect(contents.reloads).toBe(1);
    expect(restarts).toBe(1);

    contents.page = solidPng(1280, 720);
    const stored: Uint8Array[] = [];
    const reports: CommandResult[] = [];
    const runner = new CommandRunner(
      {
        clock: new FakeClock(),
        random: () => 0.5,
        log: recordingLogger(),
        store: new MemoryStore(),
        emit: () => undefined,
        controls: () => controls,
      },
      {
        queuedCommands: async () => [],
        reportCommand: async (_tag, _id, result) => reports.push(result),
        putScreenshot: async (_tag, png) => stored.push(png),
      },
      { tag: 'lobby', name: () => 'Lobby' },
    );
    const command: Command = {
      id: 'cmd_1',
      device_tag: 'lobby',
      type: 'screenshot',
      status: 'queued',
      reason: null,
      created_at: '2026-11-21T08:00:00.000Z',
      updated_at: '2026-11-21T08:00:00.000Z',
      expires_at: '2026-11-21T09:00:00.000Z',
    };
    runner.receive(command);
    await settle();
    expect(stored.map((png) => Buffer.from(png).equals(contents.page as Uint8Array))).toEqual([true]);
    expect(reports.map((result) => result.status)).toEqual(['delivered', 'done']);

    // Minimised: nothing to store, and the command says why.
    contents.page = null;
    runner.receive({ ...command, id: 'cmd_2' });
    await settle();
    expect(stored).toHaveLength(1);
    expect(reports.at(-1)).toEqual({
      status: 'failed',
      reason: 'the capture failed: the window shows nothing (hidden or minimised?)',
    });
  });
});
