import type { Notification } from '../../shared/notification';
import type { HelloAck, RealtimeEvent } from '../../shared/events';
import type {
  Clock,
  KeyValueStore,
  Logger,
  MediaStore,
  RealtimeSocket,
  RealtimeSocketEvents,
  SystemInfo,
  TimerHandle,
} from '../ports';
import type { AgentDeps } from '../agent';
import type { AgentConfig } from '../config';

/** Time that moves only when a test says so; timers run in order as it passes. */
export class FakeClock implements Clock {
  current = 0;
  private timers: { at: number; seq: number; run: () => void; cancelled: boolean }[] = [];
  private seq = 0;

  now(): number {
    return this.current;
  }

  setTimeout(run: () => void, ms: number): TimerHandle {
    const timer = { at: this.current + ms, seq: this.seq++, run, cancelled: false };
    this.timers.push(timer);
    return { cancel: () => (timer.cancelled = true) };
  }

  /** Moves time forward by `ms`, running every timer due on the way (and what their promises do). */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      await settle();
      const due = this.timers
        .filter((t) => !t.cancelled && t.at <= target)
        .sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = due.at;
      due.run();
    }
    this.current = target;
    await settle();
  }
}

interface SkippableTimer {
  at: number;
  run: () => void;
  real: NodeJS.Timeout;
}

/**
 * Real time that a test can also move on at once, for an agent against real processes: a timer
 * runs when its time comes on the wall clock or when a skip passes it, whichever is first. Only
 * the agent's own waiting is skipped; its sockets and the service keep real time.
 */
export class SkippableClock implements Clock {
  private offset = 0;
  private readonly timers = new Set<SkippableTimer>();

  now(): number {
    return Date.now() + this.offset;
  }

  setTimeout(run: () => void, ms: number): TimerHandle {
    const timer: SkippableTimer = { at: this.now() + ms, run, real: setTimeout(() => this.fire(timer), ms) };
    timer.real.unref();
    this.timers.add(timer);
    return {
      cancel: () => {
        clearTimeout(timer.real);
        this.timers.delete(timer);
      },
    };
  }

  /** Moves time on by `ms` at once, running the timers due on the way in order (and what their promises do). */
  async skip(ms: number): Promise<void> {
    const target = this.now() + ms;
    for (;;) {
      await settle();
      const due = [...this.timers].filter((t) => t.at <= target).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.offset = Math.max(this.offset, due.at - Date.now());
      this.fire(due);
    }
    this.offset = Math.max(this.offset, target - Date.now());
    await settle();
  }

  private fire(timer: SkippableTimer): void {
    if (!this.timers.delete(timer)) return;
    clearTimeout(timer.real);
    timer.run();
  }
}

/** Lets pending promise chains (fake I/O) run to their end. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

export class MemoryStore implements KeyValueStore {
  readonly data = new Map<string, unknown>();
  async read(key: string): Promise<unknown> {
    return structuredClone(this.data.get(key));
  }
  async write(key: string, value: unknown): Promise<void> {
    this.data.set(key, structuredClone(value));
  }
}

export class FakeSocket implements RealtimeSocket {
  readonly hellos: { tag: string; lastEventId: number | null }[] = [];
  closed = false;
  reconnects = 0;
  private readonly listeners = new Map<string, ((...args: never[]) => void)[]>();

  constructor(public answer: (lastEventId: number | null) => HelloAck) {}

  on<E extends keyof RealtimeSocketEvents>(event: E, listener: RealtimeSocketEvents[E]): void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener as never]);
  }

  async hello(tag: string, lastEventId: number | null): Promise<HelloAck> {
    this.hellos.push({ tag, lastEventId });
    return this.answer(lastEventId);
  }

  reconnect(): void {
    this.reconnects++;
  }

  close(): void {
    this.closed = true;
  }

  fire<E extends keyof RealtimeSocketEvents>(event: E, ...args: Parameters<RealtimeSocketEvents[E]>): void {
    for (const listener of this.listeners.get(event) ?? []) (listener as (...a: unknown[]) => void)(...args);
  }

  push(event: RealtimeEvent): void {
    this.fire('event', event);
  }
}

export const fixedSystem: SystemInfo = {
  machineId: async () => 'ABCDEF0123456789',
  hostname: async () => 'test-host',
  snapshot: async () => ({
    os: 'Test OS 1',
    cpu_load: 5,
    memory: { total_bytes: 1000, used_bytes: 500 },
    uptime_seconds: 60,
  }),
};

export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
}

/** A notification of the default channel titled `id`, with `sound` as its sound_url. */
export function notificationWithSound(id: string, sound: string | null): Notification {
  return {
    id,
    channel_id: 'ch_default',
    title: id,
    message: 'm',
    icon: null,
    duration: 10,
    sound_url: sound,
    created_at: '2026-11-21T08:00:00.000Z',
  };
}

/** A media cache that holds nothing and fetches nothing, for agents whose media are not the point. */
export const noMedia: MediaStore = {
  load: async () => undefined,
  ensure: async () => 'x',
  has: () => false,
  nameOf: () => 'x',
  usage: () => ({ bytes: 0, items: 0 }),
  flush: async () => undefined,
  useService: () => undefined,
};

/** The configuration of the screen "lobby" of the agent tests. */
export const lobbyConfig: AgentConfig = {
  server: 'http://service.test',
  token: 'secret',
  tag: 'lobby',
  name: 'Lobby',
  heartbeatSeconds: 30,
  cacheDir: '/unused',
  cacheLimitBytes: 1e9,
};

/** An agent's edges: the given ones, and the rest fixed (a machine, no media, version 1.2.3). */
export function agentDeps(
  edges: Pick<AgentDeps, 'fetch' | 'connectRealtime' | 'clock' | 'store' | 'log'> & Partial<AgentDeps>,
): AgentDeps {
  return {
    system: fixedSystem,
    media: noMedia,
    random: () => 0.5,
    appVersion: '1.2.3',
    mediaBaseUrl: '/media/',
    ...edges,
  };
}
