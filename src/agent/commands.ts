import type { BridgeMessage, ScreenshotTaken } from '../shared/bridge';
import { IDENTIFY_SECONDS, pngSize, type Command, type CommandResult } from '../shared/command';
import { backoffDelay } from './backoff';
import type { Clock, KeyValueStore, Logger, TimerHandle } from './ports';
import { ServiceError } from './service-client';

/**
 * What the app around the agent does for a command: Electron's shell reloads and captures its
 * window and relaunches itself. What it does not do goes through the renderer (the bridge's
 * `reload` and `screenshot` messages); the agent restarts its own session (DeviceAgent).
 */
export interface DeviceControls {
  reload?(): void | Promise<void>;
  /** Ends this app and starts it again: what follows may never run. */
  restart(): void | Promise<void>;
  /** A PNG of exactly what the screen shows. */
  screenshot?(): Promise<Uint8Array>;
  /**
   * Puts the display to sleep where the platform allows (DPMS through the display server, HDMI-CEC
   * standby), answering which way it did; without these the renderer's black, paused screen is
   * all there is ('black'). Absent: 'black'.
   */
  sleepDisplay?(): Promise<PowerMethod>;
  /** Wakes what sleepDisplay put to sleep. */
  wakeDisplay?(): Promise<void>;
}

/** How a screen is off: its display asleep by DPMS or by HDMI-CEC, or only drawn black. */
export type PowerMethod = 'dpms' | 'cec' | 'black';

/** The service routes commands use (the ServiceClient's). */
export interface CommandService {
  queuedCommands(tag: string): Promise<Command[]>;
  reportCommand(tag: string, id: string, result: CommandResult): Promise<unknown>;
  putScreenshot(tag: string, png: Uint8Array): Promise<unknown>;
}

export interface CommandsDeps {
  clock: Clock;
  random: () => number;
  log: Logger;
  store: KeyValueStore;
  /** Tells the renderer (identify, and what the controls do not do themselves). */
  emit(message: BridgeMessage): void;
  controls(): DeviceControls;
  /** Wakes the screen until its power window ends (schedule-player.ts); false when it is not off. */
  wake?(): boolean;
}

/** Where a restart under way is remembered, so that the app started anew reports it done. */
export const RESTART_KEY = 'restart-command';
/** How long the page has to answer a `screenshot` message. */
export const SCREENSHOT_TIMEOUT_MS = 30_000;
/** Command ids remembered, so that one pushed and also listed (or replayed) runs once. */
const SEEN_MAX = 500;
/** Reports waiting for the service; the oldest go first past this. */
const REPORTS_MAX = 200;

/** A failure with the reason the service keeps for it. */
class CommandFailed extends Error {}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

interface PendingShot {
  resolve(png: Uint8Array): void;
  reject(error: Error): void;
  timer: TimerHandle;
}

/**
 * Runs the remote commands of one device, one at a time in the order they came: reported
 * `delivered` first (a command the service no longer has open, expired or replayed from long ago,
 * is not run), then `done` or `failed` with a reason. Reports the service could not take are
 * sent again with backoff. A restart is remembered before the app ends and reported done by the
 * app started anew, once it is caught up with the service.
 */
export class CommandRunner {
  private readonly seen = new Set<string>();
  private readonly queue: Command[] = [];
  private running = false;
  private readonly reports: { id: string; result: CommandResult }[] = [];
  private reporting = false;
  private reportTimer: TimerHandle | null = null;
  private reportAttempt = 0;
  private readonly shots = new Map<string, PendingShot>();
  private shotIds = 0;
  private stopped = false;

  constructor(
    private readonly deps: CommandsDeps,
    private readonly service: CommandService,
    private readonly device: { tag: string; name(): string },
  ) {}

  /** A command pushed by the service, listed as queued, or replayed: run once. */
  receive(command: Command): void {
    if (this.stopped || command.device_tag !== this.device.tag || this.seen.has(command.id)) return;
    this.remember(command.id);
    this.queue.push(command);
    void this.runQueue();
  }

  /**
   * The device is caught up with the service: a restart it was doing is reported done, and the
   * commands sent while it was away are fetched (a replay may have brought them already).
   */
  async caughtUp(): Promise<void> {
    const restarted = await this.deps.store.read(RESTART_KEY);
    if (typeof restarted === 'string') {
      this.remember(restarted);
      await this.deps.store.write(RESTART_KEY, null);
      this.deps.log.info(`restarted for command ${restarted}`);
      this.report(restarted, { status: 'done' });
    }
    try {
      for (const command of await this.service.queuedCommands(this.device.tag)) this.receive(command);
    } catch (error) {
      this.deps.log.warn(`could not fetch the waiting commands: ${(error as Error).message}`);
    }
  }

  /** The page's answer to a `screenshot` message. */
  screenshotTaken(answer: ScreenshotTaken): void {
    const pending = this.shots.get(answer.request_id);
    if (!pending) return;
    this.shots.delete(answer.request_id);
    pending.timer.cancel();
    if (answer.error !== undefined || answer.png_base64 === undefined) {
      pending.reject(new CommandFailed(`the page could not capture itself: ${answer.error ?? 'no image'}`));
      return;
    }
    pending.resolve(Buffer.from(answer.png_base64, 'base64'));
  }

  stop(): void {
    this.stopped = true;
    this.reportTimer?.cancel();
    for (const [id, pending] of this.shots) {
      pending.timer.cancel();
      pending.reject(new CommandFailed('the agent stopped'));
      this.shots.delete(id);
    }
  }

  private remember(id: string): void {
    this.seen.add(id);
    if (this.seen.size > SEEN_MAX) this.seen.delete(this.seen.values().next().value as string);
  }

  private async runQueue(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (let command = this.queue.shift(); command && !this.stopped; command = this.queue.shift()) {
        await this.run(command);
      }
    } finally {
      this.running = false;
    }
  }

  private async run(command: Command): Promise<void> {
    const { log } = this.deps;
    try {
      await this.service.reportCommand(this.device.tag, command.id, { status: 'delivered' });
    } catch (error) {
      if (error instanceof ServiceError && (error.status === 404 || error.status === 409)) {
        log.info(`command ${command.id} (${command.type}) is no longer open, not run: ${error.message}`);
        return;
      }
      // Fresh from the service, which is only out of reach for a moment: run it, report later.
      this.report(command.id, { status: 'delivered' });
    }
    log.info(`running command ${command.id}: ${command.type}`);
    try {
      // A restart is reported done by the app started anew (caughtUp), not by this one.
      if ((await this.execute(command)) === 'done') this.report(command.id, { status: 'done' });
    } catch (error) {
      const reason = error instanceof CommandFailed ? error.message : `it failed: ${messageOf(error)}`;
      log.warn(`command ${command.id} (${command.type}) failed: ${reason}`);
      this.report(command.id, { status: 'failed', reason: reason.slice(0, 1000) });
    }
  }

  private async execute(command: Command): Promise<'done' | 'restarting'> {
    const controls = this.deps.controls();
    switch (command.type) {
      case 'identify':
        this.deps.emit({
          kind: 'identify',
          name: this.device.name(),
          tag: this.device.tag,
          seconds: IDENTIFY_SECONDS,
        });
        return 'done';
      case 'reload':
        if (controls.reload) await controls.reload();
        else this.deps.emit({ kind: 'reload', reason: `remote command ${command.id}` });
        return 'done';
      case 'screenshot':
        await this.screenshot(controls);
        return 'done';
      case 'wake':
        if (!this.deps.wake?.()) this.deps.log.info(`command ${command.id}: the screen is not off`);
        return 'done';
      case 'restart':
        // Remembered first: the app may end inside the call.
        await this.deps.store.write(RESTART_KEY, command.id);
        await controls.restart();
        return 'restarting';
    }
  }

  private async screenshot(controls: DeviceControls): Promise<void> {
    let png: Uint8Array;
    try {
      png = controls.screenshot ? await controls.screenshot() : await this.askPage();
    } catch (error) {
      if (error instanceof CommandFailed) throw error;
      throw new CommandFailed(`the capture failed: ${messageOf(error)}`);
    }
    if (!pngSize(png)) throw new CommandFailed('the capture is not a PNG image');
    try {
      await this.service.putScreenshot(this.device.tag, png);
    } catch (error) {
      throw new CommandFailed(`the screenshot could not be stored: ${(error as Error).message}`);
    }
  }

  /** Asks the page to capture itself (the web player) and waits for its answer. */
  private askPage(): Promise<Uint8Array> {
    const requestId = `shot-${++this.shotIds}`;
    return new Promise((resolve, reject) => {
      const timer = this.deps.clock.setTimeout(() => {
        this.shots.delete(requestId);
        reject(
          new CommandFailed(
            `no page answered within ${SCREENSHOT_TIMEOUT_MS / 1000} s: is a browser showing the player?`,
          ),
        );
      }, SCREENSHOT_TIMEOUT_MS);
      this.shots.set(requestId, { resolve, reject, timer });
      this.deps.emit({ kind: 'screenshot', request_id: requestId });
    });
  }

  /** Sends a report now, or again later until the service takes or refuses it. */
  private report(id: string, result: CommandResult): void {
    this.reports.push({ id, result });
    if (this.reports.length > REPORTS_MAX) this.reports.shift();
    void this.sendReports();
  }

  private async sendReports(): Promise<void> {
    if (this.reporting || this.stopped) return;
    this.reporting = true;
    try {
      for (let next = this.reports[0]; next && !this.stopped; next = this.reports[0]) {
        try {
          await this.service.reportCommand(this.device.tag, next.id, next.result);
        } catch (error) {
          // Out of reach, or failing: tried again later. Refused (gone, finished): dropped.
          if (!(error instanceof ServiceError) || error.status === 0 || error.status >= 500) {
            this.retryReports();
            return;
          }
          this.deps.log.warn(`the service refused the report on command ${next.id}: ${error.message}`);
        }
        this.reports.shift();
        this.reportAttempt = 0;
      }
    } finally {
      this.reporting = false;
    }
  }

  private retryReports(): void {
    this.reportTimer?.cancel();
    this.reportTimer = this.deps.clock.setTimeout(
      () => {
        this.reportTimer = null;
        void this.sendReports();
      },
      backoffDelay(this.reportAttempt++, this.deps.random),
    );
  }
}
