import type { Heartbeat } from '../shared/device';
import { jittered } from './backoff';
import type { Clock, Logger, SystemInfo, TimerHandle } from './ports';

export interface HeartbeatSource {
  appVersion: string;
  /** What is on screen, cache use and recoveries: filled by the agent at each beat. */
  extras(): Pick<Heartbeat, 'showing' | 'cache' | 'recoveries'>;
}

/**
 * Sends a heartbeat at once, then every interval with ±10% jitter, so a fleet started together
 * spreads out. A failed beat is not retried: the next one follows on time.
 */
export class HeartbeatLoop {
  private timer: TimerHandle | null = null;
  private stopped = true;

  constructor(
    private readonly deps: { clock: Clock; system: SystemInfo; random: () => number; log: Logger },
    private readonly intervalMs: number,
    private readonly source: HeartbeatSource,
    private readonly send: (heartbeat: Heartbeat) => Promise<void>,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    void this.beat();
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = null;
  }

  async collect(): Promise<Heartbeat> {
    const snapshot = await this.deps.system.snapshot();
    return { app_version: this.source.appVersion, ...snapshot, ...this.source.extras() };
  }

  private async beat(): Promise<void> {
    try {
      await this.send(await this.collect());
    } catch (error) {
      this.deps.log.warn(`heartbeat not sent: ${(error as Error).message}`);
    } finally {
      if (!this.stopped) {
        this.timer = this.deps.clock.setTimeout(
          () => void this.beat(),
          jittered(this.intervalMs, this.deps.random),
        );
      }
    }
  }
}
