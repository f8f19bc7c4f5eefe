import { beforeEach, describe, expect, it } from 'vitest';
import { FakeClock, recordingLogger } from '../agent/testing/fakes';
import { healingKiosk, KIOSK_BUDGET, type KioskExit, type KioskRun } from './kiosk-healing';

/** A browser process that the test ends as it likes: a fake of spawn. */
class FakeBrowser implements KioskRun {
  stopped = false;
  private end: (exit: KioskExit) => void = () => undefined;
  readonly exited = new Promise<KioskExit>((resolve) => (this.end = resolve));

  crash(exit: KioskExit = { code: null, signal: 'SIGKILL' }): void {
    this.end(exit);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.end({ code: 0, signal: null });
  }
}

let clock: FakeClock;
let log: ReturnType<typeof recordingLogger>;
let browsers: FakeBrowser[];
let recoveries: string[];
let failOpen: Error | null;

const MINUTE = 60_000;

beforeEach(() => {
  clock = new FakeClock();
  log = recordingLogger();
  browsers = [];
  recoveries = [];
  failOpen = null;
});

function start() {
  return healingKiosk({
    open: async () => {
      if (failOpen) throw failOpen;
      const browser = new FakeBrowser();
      browsers.push(browser);
      return browser;
    },
    clock,
    log,
    recovered: (what) => recoveries.push(what),
  });
}

const latest = (): FakeBrowser => {
  const browser = browsers.at(-1);
  if (!browser) throw new Error('no browser was started');
  return browser;
};

describe('the self-healing kiosk browser', () => {
  it('starts it again after it dies, waiting longer each time, and reports each restart', async () => {
    const kiosk = await start();
    const startedAt: number[] = [];
    for (let i = 0; i < 3; i++) {
      latest().crash();
      const before = browsers.length;
      const from = clock.now();
      await clock.advance(0);
      while (browsers.length === before) await clock.advance(100);
      startedAt.push(clock.now() - from);
    }
    // 1 s, then 2 s, then 4 s.
    expect(startedAt).toEqual([1000, 2000, 4000]);
    expect(recoveries).toEqual(Array(3).fill('kiosk browser restarted after it was killed by SIGKILL'));
    expect(log.lines[0]).toBe('warn the kiosk browser was killed by SIGKILL; starting it again in 1 s');
    await kiosk.stop();
    expect(latest().stopped).toBe(true);
  });

  it('restarts a browser that exited by itself too, whatever its status', async () => {
    const kiosk = await start();
    latest().crash({ code: 0, signal: null });
    await clock.advance(1000);
    expect(browsers).toHaveLength(2);
    expect(recoveries).toEqual(['kiosk browser restarted after it exited with status 0']);
    await kiosk.stop();
  });

  it('gives up on the exit after the fifth restart within ten minutes', async () => {
    const kiosk = await start();
    let gaveUp: string | null = null;
    void kiosk.gaveUp.then((reason) => (gaveUp = reason));
    for (let i = 0; i < KIOSK_BUDGET.restarts; i++) {
      latest().crash();
      await clock.advance(MINUTE);
    }
    expect(browsers).toHaveLength(6);
    expect(gaveUp).toBeNull();
    latest().crash({ code: 1, signal: null });
    await clock.advance(MINUTE);
    expect(browsers).toHaveLength(6);
    expect(gaveUp).toBe(
      'the kiosk browser exited with status 1, after 5 restarts within 10 minutes: giving up',
    );
    expect(log.lines.at(-1)).toBe(`error ${gaveUp}`);
    await kiosk.stop();
  });

  it('forgets restarts older than ten minutes, and starts again from the shortest wait', async () => {
    const kiosk = await start();
    for (let i = 0; i < KIOSK_BUDGET.restarts; i++) {
      latest().crash();
      await clock.advance(MINUTE);
    }
    // Every restart is more than ten minutes old by now.
    await clock.advance(11 * MINUTE);
    latest().crash();
    await clock.advance(0);
    expect(log.lines.at(-1)).toBe('warn the kiosk browser was killed by SIGKILL; starting it again in 1 s');
    await clock.advance(1000);
    expect(browsers).toHaveLength(7);
    await kiosk.stop();
  });

  it('counts a browser that cannot be started as one more failure', async () => {
    const kiosk = await start();
    let gaveUp: string | null = null;
    void kiosk.gaveUp.then((reason) => (gaveUp = reason));
    failOpen = new Error('spawn /usr/bin/chromium ENOENT');
    latest().crash();
    await clock.advance(10 * MINUTE);
    expect(gaveUp).toMatch(/^the kiosk browser could not be started \(spawn \/usr\/bin\/chromium ENOENT\)/);
    expect(recoveries).toEqual([]);
    await kiosk.stop();
  });

  it('stops for good: no restart after stop, and the browser it runs is stopped', async () => {
    const kiosk = await start();
    latest().crash();
    await kiosk.stop();
    await clock.advance(MINUTE);
    expect(browsers).toHaveLength(1);
    expect(recoveries).toEqual([]);
  });
});
