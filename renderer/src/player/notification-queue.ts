import type { Notification } from '../../../src/shared/notification';

export interface NotificationSnapshot {
  /** On screen now. */
  readonly showing: Notification | null;
  /** Queued behind it, in arrival order. */
  readonly waiting: number;
}

export interface NotificationQueueOptions {
  /** Called as each notification appears (its sound plays then), and at once for a sound alone. */
  onShow?: (notification: Notification) => void;
  log?: (level: 'info' | 'warn', message: string) => void;
}

/**
 * A backlog beyond any real burst (1000 at the default 10 s is nearly three hours). Only a
 * runaway sender reaches it; the oldest waiting are dropped then, so a screen running for weeks
 * does not grow without end.
 */
export const MAX_WAITING = 1000;
/** Ids remembered to ignore a notification delivered twice (replays after a reconnection). */
const SEEN_IDS = 2000;

/**
 * Notifications one at a time, in arrival order, each for its whole `duration` counted from
 * when it appears. One timer runs: the one of the notification on screen.
 */
export class NotificationQueue {
  private readonly listeners = new Set<() => void>();
  private readonly waiting: Notification[] = [];
  private readonly seen = new Set<string>();
  private showing: Notification | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running = true;
  private options: NotificationQueueOptions = {};
  private snapshot: NotificationSnapshot = { showing: null, waiting: 0 };

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): NotificationSnapshot => this.snapshot;

  attach(options: NotificationQueueOptions): void {
    this.options = options;
  }

  push(notification: Notification): void {
    if (this.seen.has(notification.id)) return;
    this.seen.add(notification.id);
    if (this.seen.size > SEEN_IDS) {
      const oldest = this.seen.values().next();
      if (!oldest.done) this.seen.delete(oldest.value);
    }
    if (!notification.title && !notification.message) {
      // A sound alone has nothing to show: it plays at once and keeps no one waiting.
      this.options.onShow?.(notification);
      return;
    }
    this.waiting.push(notification);
    if (this.waiting.length > MAX_WAITING) {
      const dropped = this.waiting.shift();
      this.options.log?.(
        'warn',
        `more than ${MAX_WAITING} notifications waiting: dropped ${dropped?.id ?? '?'}`,
      );
    }
    if (!this.showing) this.showNext();
    else this.publish();
  }

  /** The screen went off: the one on screen and those waiting are dropped; answers how many. */
  clear(): number {
    const dropped = this.waiting.length + (this.showing ? 1 : 0);
    this.waiting.length = 0;
    this.showing = null;
    this.clearTimer();
    this.publish();
    return dropped;
  }

  /** Unmounted: nothing may fire into a screen that is gone. */
  pause(): void {
    this.running = false;
    this.clearTimer();
  }

  /** Mounted again (React's strict mode does this at once): the one on screen starts its time over. */
  resume(): void {
    if (this.running) return;
    this.running = true;
    if (this.showing) this.startTimer(this.showing);
    else this.showNext();
  }

  private showNext(): void {
    if (!this.running) return;
    this.showing = this.waiting.shift() ?? null;
    if (this.showing) {
      this.startTimer(this.showing);
      this.options.onShow?.(this.showing);
    }
    this.publish();
  }

  private startTimer(notification: Notification): void {
    this.clearTimer();
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.showNext();
      },
      Math.max(1, notification.duration) * 1000,
    );
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private publish(): void {
    const previous = this.snapshot;
    if (previous.showing === this.showing && previous.waiting === this.waiting.length) return;
    this.snapshot = { showing: this.showing, waiting: this.waiting.length };
    for (const listener of [...this.listeners]) listener();
  }
}
