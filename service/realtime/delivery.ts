import type { RealtimeEvent } from '../../src/shared/events';

/** An event of the log, and the rooms it goes to. */
export interface Logged {
  event: RealtimeEvent;
  rooms: readonly string[];
}

/** Events read from the log at a time when this node catches up. */
const READ_LIMIT = 500;
/** How long after a failed read of the log this node tries again. */
const RETRY_MS = 1_000;

/** Events read from the log after an id, and what the read says of the holes between their ids. */
export interface DeliveryRead {
  events: Logged[];
  /**
   * Null when no transaction that may still fill a hole was in flight (every hole below the
   * events read is for good); else a mark to wait for with `settle`.
   */
  inFlight: string | null;
  /** Whether the mark read with (an earlier read's `inFlight`) was settled already. */
  passed: boolean;
}

export interface DeliveryEdges {
  /** The log's events after an id, oldest first, at most `limit`; `mark` as DeliveryRead says. */
  read(after: number, limit: number, mark: string | null): Promise<DeliveryRead>;
  /** Resolves once the transactions in flight at the read that gave `mark` may have ended. */
  settle(mark: string): Promise<unknown>;
  /** Pushes one event to this node's sockets in its rooms. */
  deliver(logged: Logged): void;
  /** Calls `run` after `ms` (the context's clock); returns how to cancel it. */
  later(run: () => void, ms: number): () => void;
  onError(error: unknown): void;
}

/**
 * Pushes the log's events to this node's sockets in the order of their ids, each once. A device
 * keeps the last id it heard and drops anything older (src/agent/sync.ts), then replays from it
 * after a reconnection, so an event pushed after a newer one is lost to it for good. One node
 * pushes its events in the order they commit; with several, another node's earlier event comes
 * over the network while this node's later one is pushed at once, and on PostgreSQL a later id
 * may commit before an earlier one (no lock orders the writers: repositories/events.ts). So an
 * event heard out of turn waits for those before it, which are read from the log; a hole in the
 * ids is passed only once no transaction that may fill it is in flight (a rolled back write
 * leaves one for good). So is whatever this node may have missed while it could not hear the
 * others read from the log (`catchUp`).
 */
export class OrderedDelivery {
  /** The last id pushed: every id up to it was pushed or is a hole for good. */
  private delivered = 0;
  private started = false;
  /** The newest id heard of. */
  private heardUpTo = 0;
  private reading = false;
  private stopped = false;
  private cancelRetry: (() => void) | null = null;
  /**
   * A hole that may still fill: every hole below `below` is for good once the transactions in
   * flight at the read that saw it (`mark`) have ended.
   */
  private hole: { below: number; mark: string } | null = null;
  private settling = false;

  constructor(private readonly edges: DeliveryEdges) {}

  /** Every id up to this one was pushed to this node's sockets or will never be: what replay answers up to. */
  get position(): number {
    return this.delivered;
  }

  /** Pushes what commits after `last` (an id below which no hole fills: what came before is replay's). */
  start(last: number): void {
    this.delivered = last;
    this.started = true;
    if (this.heardUpTo > last) void this.pump();
  }

  /** An event committed on this node or another: pushed now when it is next, else in its turn. */
  heard(logged: Logged): void {
    const { id } = logged.event;
    if (this.stopped || (this.started && id <= this.delivered)) return;
    this.heardUpTo = Math.max(this.heardUpTo, id);
    if (this.started && !this.reading && id === this.delivered + 1) {
      this.delivered = id;
      this.edges.deliver(logged);
      // It may have filled the hole that held later ones back.
      if (this.heardUpTo <= this.delivered) return;
    }
    void this.pump();
  }

  /** Reads the log for what may not have been heard (this node's link to the others was down). */
  catchUp(): void {
    void this.pump();
  }

  stop(): void {
    this.stopped = true;
    this.cancelRetry?.();
  }

  private async pump(): Promise<void> {
    if (this.reading || !this.started || this.stopped) return;
    this.reading = true;
    this.cancelRetry?.();
    this.cancelRetry = null;
    try {
      for (;;) {
        // Heard of before this read began, so committed before it: the read sees them.
        const heard = this.heardUpTo;
        const read = await this.edges.read(this.delivered, READ_LIMIT, this.hole?.mark ?? null);
        const settledBelow = read.passed && this.hole ? this.hole.below : 0;
        if (read.passed) this.hole = null;
        let held = false;
        for (const logged of read.events) {
          if (this.stopped) return;
          const { id } = logged.event;
          if (id <= this.delivered) continue;
          if (id > this.delivered + 1 && read.inFlight !== null && id > settledBelow) {
            held = true;
            this.hole ??= { below: read.events.at(-1)?.event.id ?? id, mark: read.inFlight };
            break;
          }
          this.delivered = id;
          this.edges.deliver(logged);
        }
        if (held) return this.settleHole();
        if (read.events.length === READ_LIMIT) continue;
        // Heard of but no longer in the log (pruned meanwhile): not to be waited for.
        this.delivered = Math.max(this.delivered, heard);
        if (this.heardUpTo <= this.delivered) break;
      }
    } catch (error) {
      this.edges.onError(error);
      if (!this.stopped) this.cancelRetry = this.edges.later(() => void this.pump(), RETRY_MS);
    } finally {
      this.reading = false;
    }
  }

  /**
   * Reads again once the writers that may fill the hole have ended. An event that fills it is
   * pushed as soon as it is heard, before that.
   */
  private settleHole(): void {
    const hole = this.hole;
    if (this.settling || !hole) return;
    this.settling = true;
    this.edges.settle(hole.mark).then(
      () => {
        this.settling = false;
        void this.pump();
      },
      (error: unknown) => {
        this.settling = false;
        this.edges.onError(error);
        if (!this.stopped) this.cancelRetry = this.edges.later(() => void this.pump(), RETRY_MS);
      },
    );
  }
}
