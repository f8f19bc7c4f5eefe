import type { Heartbeat } from '../shared/device';
import { jittered } from './backoff';
import type { Clock, Logger, MediaStore, SystemInfo, TimerHandle } from './ports';
import type { ScreenStatus } from './screen-status';
import { ServiceError } from './service-client';

export interface HeartbeatSource {
  appVersion: string;
  /** What is on screen, its size, cache use, recoveries and failures: filled in at each beat. */
  extras(): Pick<
    Heartbeat,
    'showing' | 'display' | 'cache' | 'recoveries' | 'failures' | 'time_zone' | 'power'
  >;
}

/** Beats closer together than this are not asked for: a reconnection right after a beat needs none. */
export const MIN_BEAT_GAP_MS = 5000;

type LoopDeps = { clock: Clock; system: SystemInfo; random: () => number; log: Logger };

/**
 * Sends a heartbeat at once, then every interval with ±10% jitter, so a fleet started together
 * spreads out. A failed beat is not retried: the next one follows on time.
 */
export class HeartbeatLoop {
  private timer: TimerHandle | null = null;
  private stopped = true;
  private lastBeatAt = -Infinity;
  /** A beat is under way; a beat asked for meanwhile follows it at once (`again`). */
  private beating = false;
  private again = false;

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

  /**
   * A beat now instead of at its time, unless one started just now; the interval starts again
   * from it. One asked for while a beat is under way follows that beat.
   */
  beatSoon(): void {
    if (this.stopped || this.deps.clock.now() - this.lastBeatAt < MIN_BEAT_GAP_MS) return;
    if (this.beating) {
      this.again = true;
      return;
    }
    this.timer?.cancel();
    this.timer = null;
    void this.beat();
  }

  /**
   * News of what is on screen: a beat as soon as the gap allows (now, or MIN_BEAT_GAP_MS after the
   * last one), never dropped; the interval starts again from it. One asked for while a beat is
   * under way follows that beat, which may carry what was on screen before.
   */
  beatForNews(): void {
    if (this.stopped) return;
    if (this.beating) {
      this.again = true;
      return;
    }
    const wait = Math.max(0, this.lastBeatAt + MIN_BEAT_GAP_MS - this.deps.clock.now());
    this.timer?.cancel();
    this.timer = this.deps.clock.setTimeout(() => void this.beat(), wait);
  }

  async collect(): Promise<Heartbeat> {
    const snapshot = await this.deps.system.snapshot();
    return { app_version: this.source.appVersion, ...snapshot, ...this.source.extras() };
  }

  private async beat(): Promise<void> {
    this.lastBeatAt = this.deps.clock.now();
    this.beating = true;
    try {
      await this.send(await this.collect());
    } catch (error) {
      this.deps.log.warn(`heartbeat not sent: ${(error as Error).message}`);
    } finally {
      this.beating = false;
      if (!this.stopped) {
        const delay = this.again ? 0 : jittered(this.intervalMs, this.deps.random);
        this.again = false;
        this.timer = this.deps.clock.setTimeout(() => void this.beat(), delay);
      }
    }
  }
}

export interface DeviceHeartbeatsDeps extends LoopDeps {
  /** The service's answer to a beat is not needed. */
  client: { heartbeat(tag: string, heartbeat: Heartbeat): Promise<unknown> };
  media: Pick<MediaStore, 'usage'>;
  /** What is on screen, its size and what failed (screen-status.ts). */
  screen: Pick<ScreenStatus, 'snapshot'>;
  appVersion: string;
  /** The time zone in use and the power state (schedule-player.ts); absent, neither is said. */
  power?(): Pick<Heartbeat, 'time_zone' | 'power'>;
}

/** What a heartbeat says is on screen while a power window has it off. */
export const SHOWING_OFF = 'off';

/**
 * The device's heartbeats: the process's figures, what is on screen and its size (`off` in a
 * power window, with the power state and the time zone in use), the cache's use, the recoveries
 * since the last beat (each reported once) and the failures still current. A beat the service
 * answers with 404 means it forgot the device, which must register again.
 * After a reconnection the device beats at once: the service may have turned it offline when its
 * socket went, and only a heartbeat brings it back.
 */
export class DeviceHeartbeats {
  private readonly loop: HeartbeatLoop;
  private recoveries: string[] = [];
  private online = false;

  constructor(
    deps: DeviceHeartbeatsDeps,
    device: { tag: string; intervalMs: number },
    onUnknownDevice: () => void,
  ) {
    const source: HeartbeatSource = {
      appVersion: deps.appVersion,
      extras: () => {
        const power = deps.power?.() ?? {};
        const screen = deps.screen.snapshot();
        return {
          ...screen,
          // Off, the renderer plays nothing, whatever it last reported.
          showing: power.power?.off ? SHOWING_OFF : screen.showing,
          cache: deps.media.usage(),
          recoveries: this.recoveries.splice(0),
          ...power,
        };
      },
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

  /** The realtime connection is up (after a catch-up) or down. */
  connected(online: boolean): void {
    if (online && !this.online) this.loop.beatSoon();
    this.online = online;
  }

  recordRecovery(what: string): void {
    this.recoveries.push(what);
  }

  /** What is on screen changed kind (screen-status.ts `showingMode`): a beat now, or once the gap allows. */
  beatForNews(): void {
    this.loop.beatForNews();
  }
}
