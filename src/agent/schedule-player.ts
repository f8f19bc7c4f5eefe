import type { PlayerState } from '../shared/bridge';
import type { Heartbeat } from '../shared/device';
import { overrideInForce, type OverrideShown } from '../shared/override';
import { isTimeZone } from '../shared/schedule';
import { NEXT_CHANGE_HORIZON, isOff, nextChange, playlistAt } from '../shared/schedule-rules';
import type { DeviceControls, PowerMethod } from './commands';
import type { Clock, Logger, TimerHandle } from './ports';

/**
 * The longest the player waits between two looks at the schedule: a timer set for days drifts,
 * and the system clock may be set or jump meanwhile (NTP at boot, a machine that slept).
 */
export const RECHECK_MS = 60 * 60 * 1000;

export interface SchedulePlayerDeps {
  clock: Clock;
  log: Logger;
  /** The system's own IANA time zone: where the schedule is read when the settings name none. */
  systemTimeZone(): string;
  /** The app's display controls (sleepDisplay, wakeDisplay), read at each change. */
  controls(): Partial<Pick<DeviceControls, 'sleepDisplay' | 'wakeDisplay'>>;
  /** The state the renderer has now (the state store's). */
  current(): PlayerState;
  /** Puts the current state through `view` again and tells the renderer (the state store's set). */
  refresh(): void;
}

/** The system's own time zone, as the runtime knows it (UTC when it knows none it can name). */
export function systemTimeZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return isTimeZone(zone) ? zone : 'UTC';
}

/** The emergency override of the settings while it is in force at `now`, else null. */
export function overrideAt(state: PlayerState, now: number): OverrideShown | null {
  const override = state.settings?.override ?? null;
  return override && overrideInForce(override, now) ? override : null;
}

/**
 * Plays the screen's schedule on the device, in the screen's time zone, with no help from the
 * service: `view` puts the playlist in force, the emergency override in force and the display
 * (rotation, off) into every state the agent publishes, and one timer on the clock wakes it at
 * the next change (`nextChange`, or the override's expiry), or within RECHECK_MS at the latest.
 * Entering a power window puts the display to sleep, leaving it wakes it; a `wake` command keeps
 * the screen on until the window it is in ends; an override keeps it on while it is in force
 * (a screen asleep in its window wakes for it, and sleeps again when it ends inside the window).
 */
export class SchedulePlayer {
  private timer: TimerHandle | null = null;
  /** Whether the display was last put to sleep (true) or woken (false); null before the first state. */
  private asleep: boolean | null = null;
  private method: PowerMethod | null = null;
  /** Woken by a command: on until this instant (the end of the off window it was in). */
  private wokenUntil: number | null = null;
  /** Display changes run one after the other, in order. */
  private power: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly deps: SchedulePlayerDeps) {}

  /** The zone the schedule is read in: the settings', else the system's. */
  timeZoneOf(state: PlayerState): string {
    return state.settings?.time_zone ?? this.deps.systemTimeZone();
  }

  /**
   * The state as it plays now: the playlist in force, the override in force and the display.
   * Without settings, the state as it is.
   */
  view(state: PlayerState): PlayerState {
    const settings = state.settings;
    if (!settings) return state;
    const now = this.deps.clock.now();
    const zone = this.timeZoneOf(state);
    if (this.wokenUntil !== null && now >= this.wokenUntil) this.wokenUntil = null;
    const playing = playlistAt(settings.schedule, settings.playlist_id, now, zone);
    const playlist = playing.playlist_id ? (state.playlists?.[playing.playlist_id] ?? null) : null;
    const override = overrideAt(state, now);
    // An override is shown above off windows: the screen is on while it is in force.
    const off = override === null && this.wokenUntil === null && isOff(settings.power, now, zone);
    return { ...state, playlist, override, display: { rotation: settings.rotation, off } };
  }

  /** Every state the renderer is told: the display follows it, and the one timer is set anew. */
  observe(state: PlayerState): void {
    if (this.stopped) return;
    this.follow(state.display?.off ?? false, Boolean(state.override));
    this.arm(state);
  }

  /**
   * The `wake` command: the screen comes on until the off window it is in ends (false when it is
   * not off). A window that does not end within the rules' horizon keeps it on that long.
   */
  wake(state: PlayerState): boolean {
    const power = state.settings?.power ?? null;
    const now = this.deps.clock.now();
    const zone = this.timeZoneOf(state);
    if (!state.display?.off || !isOff(power, now, zone)) return false;
    let end: number | null = now;
    while (end !== null && isOff(power, end, zone)) end = nextChange(null, power, end, zone);
    this.wokenUntil = end ?? now + NEXT_CHANGE_HORIZON;
    this.deps.log.info(`woken by a command until ${new Date(this.wokenUntil).toISOString()}`);
    this.deps.refresh();
    return true;
  }

  /** What the heartbeats say of it: the zone in use and whether (and how) the screen is off. */
  heartbeat(state: PlayerState): Pick<Heartbeat, 'time_zone' | 'power'> {
    const off = state.display?.off ?? false;
    return {
      time_zone: this.timeZoneOf(state),
      power: { off, method: off ? (this.method ?? 'black') : null },
    };
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = null;
  }

  private arm(state: PlayerState): void {
    this.timer?.cancel();
    this.timer = null;
    const settings = state.settings;
    if (!settings) return;
    const now = this.deps.clock.now();
    const next = nextChange(settings.schedule, settings.power, now, this.timeZoneOf(state));
    // The override ends by itself at its expiry, the service reachable or not.
    const expires = overrideAt(state, now)?.expires_at;
    const due = Math.min(
      next ?? Infinity,
      this.wokenUntil ?? Infinity,
      expires ? Date.parse(expires) : Infinity,
      now + RECHECK_MS,
    );
    this.timer = this.deps.clock.setTimeout(
      () => {
        this.timer = null;
        this.tick();
      },
      Math.max(0, due - now),
    );
  }

  /** The timer: the renderer is told a new state only when the playlist, the override or the display changes. */
  private tick(): void {
    const current = this.deps.current();
    const next = this.view(current);
    const same =
      next.playlist?.id === current.playlist?.id &&
      (next.override?.id ?? null) === (current.override?.id ?? null) &&
      next.display?.off === current.display?.off &&
      next.display?.rotation === current.display?.rotation;
    if (same) this.arm(current);
    else this.deps.refresh();
  }

  /**
   * Puts the display to sleep or wakes it when the state says so, once per change. `override`:
   * an emergency override is on screen (it wakes a screen in its off window the same way).
   */
  private follow(off: boolean, override: boolean): void {
    // At start a screen that should be on is on already: only sleep needs doing.
    if (off === (this.asleep ?? false)) {
      this.asleep = off;
      return;
    }
    this.asleep = off;
    const { log } = this.deps;
    this.power = this.power.then(async () => {
      const controls = this.deps.controls();
      try {
        if (off) {
          this.method = 'black';
          this.method = (await controls.sleepDisplay?.()) ?? 'black';
          log.info(`a power window: the screen is off (${this.method})`);
        } else {
          this.method = null;
          await controls.wakeDisplay?.();
          log.info(`${override ? 'an emergency override' : 'the power window ended'}: the screen is on`);
        }
      } catch (error) {
        log.warn(`cannot turn the display ${off ? 'off' : 'on'}: ${(error as Error).message}`);
      }
    });
  }
}
