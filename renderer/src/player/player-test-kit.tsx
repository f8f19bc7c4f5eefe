import { flushSync } from 'react-dom';
import { vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { boardExportSchema, type BoardExport } from '../../../src/shared/board-export';
import type {
  BridgeMessage,
  FailureReport,
  PlayerState,
  RendererLog,
  ScreenshotTaken,
  ShowingReport,
  WallboardBridge,
} from '../../../src/shared/bridge';
import { bridgeClient } from '../../../src/shared/bridge-client';
import type { PlayReport } from '../../../src/shared/play';
import { notificationSchema, type Notification } from '../../../src/shared/notification';
import type { OverrideShown } from '../../../src/shared/override';
import { playlistSchema } from '../../../src/shared/playlist';
import type { Framing, WebPageRequest } from '../../../src/shared/web-content';
import { FlowStore } from '../store/flow-store';
import { WaitingScreen } from '../waiting-screen';
import { Player } from './player';

// Taken before any test fakes the timers: waiting for the browser (decoding, media events) needs real time.
const realSetTimeout = globalThis.setTimeout.bind(globalThis);

/** Real time passing, whatever the fake clock does. */
export const realPause = (ms = 0) => new Promise<void>((resolve) => realSetTimeout(resolve, ms));

/** Fakes only the clocks the player uses, so the browser and the test runner keep real time. */
export function useFakeClock(): void {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'],
  });
}

/**
 * Moves the fake clock on in steps, letting React commit and run its effects (on real time)
 * after each, as the real browser would between frames.
 */
export async function tick(ms: number, step = 50): Promise<void> {
  for (let passed = 0; passed < ms; passed += step) {
    await vi.advanceTimersByTimeAsync(Math.min(step, ms - passed));
    await realPause();
  }
}

/**
 * Options of `vi.waitFor` for something the browser does by itself (decoding an image, loading a
 * video), which takes real time; under the fake clock vi.waitFor moves it on by each interval.
 */
export const browserWait = { timeout: 5000, interval: 10 };

export class FakeBridge implements WallboardBridge {
  readonly logs: RendererLog[] = [];
  readonly reports: string[] = [];
  /** Every report whole, with the page's size. */
  readonly showingReports: ShowingReport[] = [];
  readonly failures: FailureReport[] = [];
  readonly chosen: string[] = [];
  /** Proof of play, and the answers to `screenshot` messages. */
  readonly plays: PlayReport[] = [];
  readonly screenshots: ScreenshotTaken[] = [];
  /** What `checkFraming` answers, by URL (else allowed), and the web pages asked of the shell. */
  readonly framings = new Map<string, Framing>();
  readonly webPages: WebPageRequest[] = [];
  /** Whether the shell draws full-screen web pages itself (Electron does; the web player does not). */
  nativeWebPages = false;
  private readonly listeners = new Set<(message: BridgeMessage) => void>();

  constructor(public state: PlayerState) {}

  getState(): Promise<PlayerState> {
    return Promise.resolve(this.state);
  }

  onMessage(listener: (message: BridgeMessage) => void) {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  reportShowing(report: ShowingReport): void {
    this.reports.push(report.showing);
    this.showingReports.push(report);
  }

  reportFailure(report: FailureReport): void {
    this.failures.push(report);
  }

  log(entry: RendererLog): void {
    this.logs.push(entry);
  }

  chooseService(choice: { id: string }): void {
    this.chosen.push(choice.id);
  }

  reportPlay(report: PlayReport): void {
    this.plays.push(report);
  }

  screenshotTaken(answer: ScreenshotTaken): void {
    this.screenshots.push(answer);
  }

  /** The service's clock as the agent answers it: this page's clock plus this, or null (unknown). */
  serviceOffsetMs: number | null = null;

  serviceTime(): Promise<{ now: number | null }> {
    const offset = this.serviceOffsetMs;
    return Promise.resolve({ now: offset === null ? null : Date.now() + offset });
  }

  checkFraming({ url }: { url: string }): Promise<Framing> {
    return Promise.resolve(this.framings.get(url) ?? { url, verdict: 'allowed', detail: '' });
  }

  showWebPage(request: WebPageRequest): Promise<{ shown: boolean }> {
    this.webPages.push(request);
    return Promise.resolve({ shown: this.nativeWebPages && request.url !== null });
  }

  /**
   * Delivers a message and lets React commit what it causes (effects included) at once, at the
   * fake clock's present: a play's end or a state's start is then stamped at the instant the test
   * meant, not whenever a loaded machine got round to React's next task.
   */
  emit(message: BridgeMessage): void {
    flushSync(() => {
      for (const listener of [...this.listeners]) listener(message);
    });
  }

  logText(): string {
    return this.logs.map((entry) => entry.message).join('\n');
  }
}

/** The fake behind the contract's own client, as a real bridge is: what it hands over is checked. */
export function throughClient(fake: FakeBridge): WallboardBridge {
  return bridgeClient({
    ask: (method, [request]) => {
      if (method === 'checkFraming') return fake.checkFraming(request as { url: string });
      if (method === 'showWebPage') return fake.showWebPage(request as WebPageRequest);
      if (method === 'serviceTime') return fake.serviceTime();
      return fake.getState();
    },
    tell: (method, [entry]) => {
      if (method === 'log') fake.log(entry as RendererLog);
      else if (method === 'reportFailure') fake.reportFailure(entry as FailureReport);
      else if (method === 'reportPlay') fake.reportPlay(entry as PlayReport);
      else if (method === 'screenshotTaken') fake.screenshotTaken(entry as ScreenshotTaken);
      else fake.reportShowing(entry as ShowingReport);
    },
    subscribe: (listener) => fake.onMessage(listener),
  });
}

export function makeBoard(name: string, channels: string[] = []): BoardExport {
  return boardExportSchema.parse({ name, channel_ids: channels, widgets: [] });
}

type ItemInput = Record<string, unknown>;

export const board = (id: string, duration: number, extra: ItemInput = {}): ItemInput => ({
  type: 'board',
  board_id: id,
  duration,
  ...extra,
});
export const image = (url: string, duration: number, extra: ItemInput = {}): ItemInput => ({
  type: 'image',
  url,
  duration,
  ...extra,
});
export const video = (url: string, extra: ItemInput = {}): ItemInput => ({ type: 'video', url, ...extra });

export function makeState(
  items: ItemInput[] | null,
  { boards = {}, media = {} }: { boards?: Record<string, BoardExport>; media?: Record<string, string> } = {},
): PlayerState {
  return {
    device: { tag: 'lobby-screen', name: 'Lobby' },
    online: true,
    stale: false,
    last_sync: null,
    playlist:
      items === null
        ? null
        : playlistSchema.parse({ id: 'pl-1', name: 'Lobby', items, updated_at: '2026-11-21T07:00:00.000Z' }),
    boards,
    media,
  };
}

let notificationIds = 0;

export function makeNotification(channel: string, fields: Partial<Notification> = {}): Notification {
  notificationIds += 1;
  return notificationSchema.parse({
    id: `n-${notificationIds}`,
    channel_id: channel,
    title: `Title ${notificationIds}`,
    message: `Message ${notificationIds}`,
    icon: null,
    duration: 10,
    sound_url: null,
    created_at: '2026-11-21T07:00:00.000Z',
    ...fields,
  });
}

/** An emergency override as the agent puts it into the state: the alarm red, no image, no sound. */
export function makeOverride(fields: Partial<OverrideShown> = {}): OverrideShown {
  return {
    id: 'ovr_1',
    title: 'Fire alarm',
    message: 'Leave the building by the nearest exit.',
    image_url: null,
    sound_url: null,
    background_color: null,
    expires_at: null,
    created_at: '2026-11-21T07:00:00.000Z',
    ...fields,
  };
}

/** A small solid PNG as a data URL: a real image to decode, with nothing to fetch. */
export function pngDataUrl(color: string): string {
  const canvas = document.createElement('canvas');
  canvas.width = 64;
  canvas.height = 36;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d canvas');
  context.fillStyle = color;
  context.fillRect(0, 0, canvas.width, canvas.height);
  return canvas.toDataURL('image/png');
}

export async function renderPlayer(
  state: PlayerState,
  timing?: { prepareLeadMs?: number; readyTimeoutMs?: number },
) {
  const bridge = new FakeBridge(state);
  const store = new FlowStore();
  const element = (current: PlayerState) => (
    <Player
      state={current}
      store={store}
      bridge={bridge}
      timing={timing}
      waiting={
        <WaitingScreen headline="Waiting for a playlist" detail="Nothing to play" device={current.device} />
      }
    />
  );
  const screen = await render(element(state));
  return {
    screen,
    bridge,
    /** Gives the player a new state, as the App does. */
    show: async (next: PlayerState) => {
      await screen.rerender(element(next));
      await realPause();
    },
  };
}

/** What is on screen, as the player reports it: `board:<id>`, `image:<url>`, `video:<url>` or `waiting`. */
export function onScreen(): string {
  return document.querySelector('[data-testid="player-current"]')?.getAttribute('data-showing') ?? 'waiting';
}

export function prepared(): Element | null {
  return document.querySelector('[data-testid="player-next"]');
}
