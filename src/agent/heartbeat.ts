import type { Heartbeat } from '../shared/device';
import { jittered } from './backoff';
import type { Clock, Logger, MediaStore, SystemInfo, TimerHandle } from './ports';
import { ServiceError } from './service-client';

export interface HeartbeatSource {
  appVersion: string;
  /** What is on screen, cache use and recoveries: filled in at each beat. */
  extras(): Pick<Heartbeat, 'showing' | 'cache' | 'recoveries'>;
}

type LoopDeps = { clock: Clock; system: SystemInfo; random: () => number; log: Logger };

/**
 * Sends a heartbeat at once, then every interval with ±10% jitter, so a fleet started together
 * spreads out. A failed beat is not retried: the next one follows on time.
 */
export class HeartbeatLoop {
  private timer: TimerHandle | null = null;
  private stopped = true;

  constructor(
    private readonly deps: LoopDeps,
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

export interface DeviceHeartbeatsDeps extends LoopDeps {
  /** The service's answer to a beat is not needed. */
  client: { heartbeat(tag: string, heartbeat: Heartbeat): Promise<unknown> };
  media: Pick<MediaStore, 'usage'>;
  appVersion: string;
}

/**
 * The device's heartbeats: the machine's figures, what is on screen, the cache's use and the
 * recoveries since the last beat (each reported once). A beat the service answers with 404 means
 * it forgot the device, which must register again.
 */
export class DeviceHeartbeats {
  private readonly loop: HeartbeatLoop;
  private showing = 'waiting';
  private recoveries: string[] = [];

  constructor(
    deps: DeviceHeartbeatsDeps,
    device: { tag: string; intervalMs: number },
    onUnknownDevice: () => void,
  ) {
    const source: HeartbeatSource = {
      appVersion: deps.appVersion,
      extras: () => ({
        showing: this.showing,
        cache: deps.media.usage(),
        recoveries: this.recoveries.splice(0),
      }),
    };
    this.loop = new HeartbeatLoop(deps, device.intervalMs, source, async (beat) => {
      try {
        await deps.client.heartbeat(device.tag, beat);
      } catch (error) {
        if (error instanceof ServiceError && error.status === 404) onUnknownDevice();
        throw error;
      }
    });
  }

  /** Beats start once the service knows the device, and keep going through later outages. */
  start(): void {
    this.loop.start();
  }

  stop(): void {
    this.loop.stop();
  }

  reportShowing(showing: string): void {
    this.showing = showing;
  }

  recordRecovery(what: string): void {
    this.recoveries.push(what);
  }
}
