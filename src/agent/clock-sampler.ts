import { CLOCK_FILTER_SAMPLES, ClockEstimator } from '../shared/sync-clock';
import { clockAnswerSchema } from '../shared/sync';
import type { Clock, TimerHandle } from './ports';

/** Pings while the filter fills (at a connection), then one every few seconds. */
const FILLING_EVERY_MS = 250;
const STEADY_EVERY_MS = 5_000;
const IDLE_LOOK_MS = 1_000;

export interface ClockSamplerDeps {
  clock: Clock;
  /** One round trip to the service's clock; rejects on a timeout or a lost connection. */
  ping(): Promise<unknown>;
  /** Whether the screen needs the service's time now (it is in a sync group); else nothing is sent. */
  wanted(): boolean;
}

/**
 * Estimates the service's clock over the device's socket (docs/sync.md): round trips filtered
 * by the shortest (src/shared/sync-clock.ts), a burst at each connection and one every 5 s after.
 * A screen in no sync group sends nothing. The estimate outlives a lost connection: the clocks
 * drift by milliseconds an hour, and the screen plays on offline.
 */
export class ClockSampler {
  private readonly estimator = new ClockEstimator();
  private timer: TimerHandle | null = null;
  private connected = false;
  private inFlight = false;
  private filling = 0;

  constructor(private readonly deps: ClockSamplerDeps) {}

  /** A new connection: a burst fills the filter again, as the path may have changed. */
  connect(): void {
    this.connected = true;
    this.filling = 8;
    this.schedule(0);
  }

  disconnect(): void {
    this.connected = false;
    this.timer?.cancel();
    this.timer = null;
  }

  /** The service's time now, as well as this screen knows it; null before any answer. */
  serviceNow(): number | null {
    return this.estimator.remoteAt(this.deps.clock.now());
  }

  private schedule(ms: number): void {
    this.timer?.cancel();
    this.timer = this.deps.clock.setTimeout(() => {
      this.timer = null;
      this.tick();
    }, ms);
  }

  private tick(): void {
    if (!this.connected) return;
    // Looking costs nothing: a screen placed in a group starts sampling within a second.
    if (!this.deps.wanted() || this.inFlight) return this.schedule(IDLE_LOOK_MS);
    this.inFlight = true;
    const sent = this.deps.clock.now();
    this.deps
      .ping()
      .then((answer) => {
        const parsed = clockAnswerSchema.safeParse(answer);
        if (parsed.success) {
          this.estimator.add({ sent, remote: parsed.data.now, received: this.deps.clock.now() });
        }
      })
      .catch(() => undefined) // lost or late: one sample fewer
      .finally(() => {
        this.inFlight = false;
        if (!this.connected) return;
        this.filling = Math.max(0, this.filling - 1);
        // A screen that joined a group since it connected fills its filter as fast.
        const few = (this.estimator.estimate()?.samples ?? 0) < CLOCK_FILTER_SAMPLES;
        this.schedule(this.filling > 0 || few ? FILLING_EVERY_MS : STEADY_EVERY_MS);
      });
  }
}
