import type { PlayerState } from '../../../src/shared/bridge';
import { ItemPicker, itemIdentity, itemKey, type Playable } from './item-picker';
import { OneShot } from './one-shot';
import { describeView, resolveItem, sameView, screenChannels } from './resolve-item';
import {
  PREPARE_LEAD_MS,
  READY_TIMEOUT_MS,
  type SequencerOptions,
  type SequencerOutput,
  type SequencerSnapshot,
  type Slot,
} from './slot';
import type { SharedTime } from './shared-clock';
import { syncTurn, TurnSwitch, type SyncTurn } from './sync-plan';

/**
 * Plays a playlist: each item for its duration, in order, looping. The next item is mounted
 * hidden `prepareLeadMs` before its turn and the switch waits until it reports ready, so the
 * screen never shows a blank or half-drawn frame. Each item runs one timer at a time; views
 * report readiness, failures and video ends as events. A new state takes effect at the next
 * switch, or at once when the item on screen left the playlist.
 */
export class Sequencer {
  private readonly options: Required<SequencerOptions>;
  private output: SequencerOutput = {
    log: () => undefined,
    report: () => undefined,
    failed: () => undefined,
  };
  private readonly listeners = new Set<() => void>();
  private state: PlayerState | null = null;
  private current: Slot | null = null;
  private next: Slot | null = null;
  private nextReady = false;
  /** The current item's time is up: switch as soon as the next one is ready. */
  private due = false;
  /** Inside the current item's last `prepareLeadMs`: the next one should be mounted. */
  private preparing = false;
  private slotIds = 0;
  /** The one timer of the item on screen (its end, or the timeline's next instant). */
  private readonly timer = new OneShot();
  /** A prepared item not ready in time is skipped. */
  private readonly readyTimer = new OneShot();
  private running = true;
  private readonly picker = new ItemPicker((message) => this.output.log('info', message));
  private reported: { slot: number | null; showing: string } | null = null;
  private snapshot: SequencerSnapshot = { current: null, next: null, channels: new Set() };
  /** The shared clock of a sync group (docs/sync.md); null: each item for its duration from now. */
  private clock: SharedTime | null = null;
  /** The switch at the end of a sync group's turn. */
  private readonly turnSwitch = new TurnSwitch();

  constructor(options: SequencerOptions = {}) {
    this.options = {
      prepareLeadMs: options.prepareLeadMs ?? PREPARE_LEAD_MS,
      readyTimeoutMs: options.readyTimeoutMs ?? READY_TIMEOUT_MS,
    };
  }

  attach(output: SequencerOutput): void {
    this.output = output;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): SequencerSnapshot => this.snapshot;

  /** The shared clock a sync group plays by, or null; once known, the timeline takes over at once. */
  setClock(clock: SharedTime | null): void {
    const synced = this.syncNow() !== null;
    this.clock = clock;
    // Out of the group: the item on screen plays its duration from now, as outside one.
    if (synced && this.syncNow() === null && this.current && !this.current.gone && this.running) {
      this.turnSwitch.disarm();
      this.startCurrent();
    }
    this.settle();
  }

  /** The shared clock now, in a sync group whose timeline has a turn; null plays each item from now. */
  private syncNow(): SyncTurn | null {
    return this.state && this.clock ? syncTurn(this.state, this.clock, this.turnSwitch.floor) : null;
  }

  update(state: PlayerState): void {
    if (state === this.state) return;
    this.state = state;
    this.picker.reset();
    this.refindCurrent(state);
    this.settle();
  }

  /** The view of slot `id` can be shown without a blank or half-drawn frame. */
  ready(id: number): void {
    if (this.next?.id !== id || this.nextReady) return;
    this.nextReady = true;
    this.readyTimer.clear();
    this.settle();
  }

  /** The view of slot `id` cannot be shown: it is skipped, and so is its item until a new state. */
  failed(id: number, reason: string): void {
    const slot = [this.current, this.next].find((candidate) => candidate?.id === id);
    if (!slot) return;
    this.output.log('warn', `skipped ${describeView(slot.view)}: ${reason}`);
    this.output.failed(describeView(slot.view), reason);
    this.picker.fail(slot.item, reason);
    if (slot === this.next) {
      this.dropNext();
    } else if (slot === this.current) {
      this.current = { ...slot, gone: true };
      this.due = true;
    }
    this.settle();
  }

  /**
   * The video of slot `id` played to its end. True asks the view to play it again, because
   * nothing else is there to take its place.
   */
  ended(id: number): boolean {
    if (this.current?.id !== id) return false;
    if (this.current.view.kind === 'video' && this.current.view.duration === null) this.due = true;
    this.settle();
    return this.current?.id === id && this.next === null && !this.current.gone;
  }

  /** A video played to its end reports how long it has left once it knows, to prepare in time. */
  timeLeft(id: number, seconds: number): void {
    const current = this.current;
    if (current?.id !== id || current.view.kind !== 'video' || current.view.duration !== null) return;
    if (this.preparing || this.due) return;
    const prepareIn = seconds * 1000 - this.options.prepareLeadMs;
    if (!Number.isFinite(prepareIn) || prepareIn <= 0) {
      this.preparing = true;
      this.settle();
      return;
    }
    this.timer.set(prepareIn, () => {
      this.preparing = true;
      this.settle();
    });
  }

  /** Unmounted: no timer may fire into a player that is gone. */
  pause(): void {
    this.running = false;
    this.timer.clear();
    this.turnSwitch.disarm();
    this.readyTimer.clear();
  }

  /** Mounted again (React's strict mode does this at once): the item on screen starts over. */
  resume(): void {
    if (this.running) return;
    this.running = true;
    if (this.current && !this.current.gone) this.startCurrent();
    if (this.next && !this.nextReady) this.startReadyTimer();
    this.settle();
  }

  private refindCurrent(state: PlayerState): void {
    const current = this.current;
    if (!current || current.gone) return;
    const items = state.playlist?.items ?? [];
    const key = itemIdentity(current.item);
    let index = -1;
    let distance = Infinity;
    items.forEach((item, candidate) => {
      const away = Math.abs(candidate - current.index);
      if (away < distance && itemIdentity(item) === key) [index, distance] = [candidate, away];
    });
    const item = items[index];
    if (!item) return this.replaceAtOnce(current, 'it left the playlist');
    const resolution = resolveItem(item, state);
    if ('skip' in resolution) return this.replaceAtOnce(current, resolution.skip);
    // Its time on screen runs on as it started; an edited duration counts from its next turn.
    if (
      index !== current.index ||
      itemKey(item) !== itemKey(current.item) ||
      !sameView(current.view, resolution.view)
    ) {
      this.current = { ...current, index, item, view: resolution.view };
    }
  }

  private replaceAtOnce(current: Slot, why: string): void {
    this.output.log('info', `replacing ${describeView(current.view)} at once: ${why}`);
    this.current = { ...current, gone: true };
    this.due = true;
  }

  /** Brings the next slot, the switch and the report in line with everything known now. */
  private settle(): void {
    if (!this.running || !this.state) return;
    // A switch to an item whose whole duration is shorter than the lead prepares the one after
    // at once; the bound only guards against a loop.
    for (let round = 0; round < 3; round++) {
      this.alignNext();
      if (!this.switchIfReady()) break;
    }
    if (this.current?.gone && !this.next) {
      this.current = null;
      this.timer.clear();
    }
    this.reportShowing();
    this.publish();
  }

  private alignNext(): void {
    const turn = this.syncNow();
    if (turn) return this.alignSync(turn);
    const current = this.current;
    // Its time up, the item on screen goes if it can no longer play (a library medium that has
    // expired meanwhile, by this screen's clock: resolve-item.ts), even as the only item.
    if (current && !current.gone && this.due && this.state) {
      const now = resolveItem(current.item, this.state);
      if ('skip' in now) this.replaceAtOnce(current, now.skip);
    }
    const wanted =
      this.state && (current === null || this.due || this.preparing)
        ? this.picker.after(this.state, current ? (current.gone ? current.index - 1 : current.index) : -1)
        : null;
    // The item on screen is the only one that can play: it stays.
    const stays = wanted && current && !current.gone && wanted.index === current.index;
    if (!wanted || stays) {
      this.dropNext();
      return;
    }
    const next = this.next;
    if (next && itemIdentity(next.item) === itemIdentity(wanted.item)) {
      if (
        next.index !== wanted.index ||
        itemKey(next.item) !== itemKey(wanted.item) ||
        !sameView(next.view, wanted.view)
      ) {
        this.next = { ...next, ...wanted };
      }
      return;
    }
    this.mountNext(wanted);
  }

  private mountNext(wanted: Playable, turnStart?: number): void {
    this.dropNext();
    this.next = {
      id: ++this.slotIds,
      ...wanted,
      gone: false,
      ...(turnStart === undefined ? {} : { turnStart }),
    };
    // Nothing is on screen to keep, and a board draws as it mounts (its widgets' effects run in
    // the same commit): it comes at once, not a frame later. This also starts a board where
    // frames do not run (a hidden page, a paused test clock).
    if (this.current === null && wanted.view.kind === 'board') this.nextReady = true;
    else this.startReadyTimer();
  }

  private playableAt(index: number): Playable | null {
    return this.state ? this.picker.at(this.state, index) : null;
  }

  /**
   * A sync group's turn (docs/sync.md): what is on screen is what the shared timeline says, as
   * soon as it is ready; the next turn is prepared `prepareLeadMs` ahead and comes at the instant
   * its turn starts. An item that cannot play here leaves what is on screen there for its turn.
   */
  private alignSync({ now, current: turn, next: coming }: SyncTurn): void {
    const current = this.current;
    const onTurn = (slot: Slot | null, index: number) => slot !== null && !slot.gone && slot.index === index;
    const wanted = onTurn(current, turn.index) ? null : this.playableAt(turn.index);
    if (wanted) {
      // Behind the timeline (a start, a new state, a switch due): the turn's item, once ready.
      if (!(
        this.next &&
        this.next.index === wanted.index &&
        itemKey(this.next.item) === itemKey(wanted.item)
      )) {
        this.mountNext(wanted, turn.startsAt);
      }
      this.due = true;
      // Its readiness settles again; past its turn, the timeline has moved on.
      this.syncTimer(now, turn.endsAt);
      return;
    }
    // The same item's next turn (an item alone in the playlist): its turn counts from now on.
    if (current && !current.gone && current.index === turn.index && current.turnStart !== turn.startsAt) {
      this.current = { ...current, turnStart: turn.startsAt };
    }
    this.due = current?.gone ?? false;
    const leadAt = turn.endsAt - this.options.prepareLeadMs;
    if (now < leadAt) {
      if (!this.due) this.dropNext();
      this.syncTimer(now, leadAt);
      return;
    }
    const upcoming = coming.index === current?.index ? null : this.playableAt(coming.index);
    if (!upcoming) this.dropNext();
    else if (!(this.next && this.next.index === upcoming.index)) this.mountNext(upcoming, coming.startsAt);
    this.timer.clear();
    // A new state may have moved the instant (a restarted timeline): the switch is armed again.
    if (this.clock) this.turnSwitch.arm(this.clock, turn.endsAt, () => this.settle());
  }

  private syncTimer(now: number, at: number): void {
    this.turnSwitch.disarm();
    this.timer.set(Math.max(0, at - now), () => this.settle());
  }

  private switchIfReady(): boolean {
    if (!this.next || !this.nextReady || (this.current && !this.due)) return false;
    this.current = this.next;
    this.next = null;
    this.nextReady = false;
    this.readyTimer.clear();
    this.startCurrent();
    return true;
  }

  private startCurrent(): void {
    this.timer.clear();
    this.due = false;
    this.preparing = false;
    if (this.syncNow()) return; // the timeline times it: see alignSync
    const duration = this.current?.item.duration;
    if (duration === undefined || duration === null) return; // a video to its end: see timeLeft and ended
    const total = duration * 1000;
    const end = () =>
      this.timer.set(Math.min(total, this.options.prepareLeadMs), () => {
        this.due = true;
        this.settle();
      });
    if (total <= this.options.prepareLeadMs) {
      this.preparing = true;
      end();
      return;
    }
    this.timer.set(total - this.options.prepareLeadMs, () => {
      this.preparing = true;
      end();
      this.settle();
    });
  }

  private dropNext(): void {
    this.next = null;
    this.nextReady = false;
    this.readyTimer.clear();
  }

  private startReadyTimer(): void {
    this.readyTimer.clear();
    const id = this.next?.id;
    if (id === undefined || !this.running) return;
    this.readyTimer.set(this.options.readyTimeoutMs, () =>
      this.failed(id, `it was not ready within ${this.options.readyTimeoutMs / 1000} s`),
    );
  }

  private reportShowing(): void {
    // While the first item is being prepared nothing has settled yet: no report.
    if (!this.current && this.next) return;
    const showing = describeView(this.current?.view ?? null);
    const slot = this.current?.id ?? null;
    if (this.reported?.slot === slot && this.reported.showing === showing) return;
    this.reported = { slot, showing };
    this.output.report(showing);
  }

  private publish(): void {
    const state = this.state;
    if (!state) return;
    const previous = this.snapshot;
    const channels = screenChannels(this.current?.view ?? null, state);
    const sameChannels =
      channels.size === previous.channels.size &&
      [...channels].every((channel) => previous.channels.has(channel));
    if (previous.current === this.current && previous.next === this.next && sameChannels) return;
    this.snapshot = {
      current: this.current,
      next: this.next,
      channels: sameChannels ? previous.channels : channels,
    };
    for (const listener of [...this.listeners]) listener();
  }
}
