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

export interface DeliveryEdges {
  /** The log's events after an id, oldest first, at most `limit`. */
  read(after: number, limit: number): Promise<Logged[]>;
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
 * over the network while this node's later one is pushed at once. Ids commit in order
 * (repositories/events.ts, the event order lock), so an event heard out of turn means those
 * before it are in the log already: they are read from there and pushed first. So is whatever
 * this node may have missed while it could not hear the others (`catchUp`).
 */
export class OrderedDelivery {
  /** The last id pushed. */
  private delivered = 0;
  private started = false;
  /** The newest id heard of. */
  private heardUpTo = 0;
  private reading = false;
  private stopped = false;
  private cancelRetry: (() => void) | null = null;

  constructor(private readonly edges: DeliveryEdges) {}

  /** Pushes what commits after `last` (the log's newest id now; what came before is replay's). */
  start(last: number): void {
    this.delivered = last;
    this.started = true;
    if (this.heardUpTo > last) void this.pump();
  }

  /** An event committed on this node or another: pushed now when it is next, else in its turn. */
  heard(logged: Logged): void {
    const { id } = logged.event;
    if (this.stopped || (this.started && id <= this.delivered)) return;
    if (this.started && !this.reading && id === this.delivered + 1) {
      this.delivered = id;
      this.edges.deliver(logged);
      return;
    }
    this.heardUpTo = Math.max(this.heardUpTo, id);
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
        const read = await this.edges.read(this.delivered, READ_LIMIT);
        for (const logged of read) {
          if (this.stopped) return;
          if (logged.event.id <= this.delivered) continue;
          this.delivered = logged.event.id;
          this.edges.deliver(logged);
        }
        if (read.length === READ_LIMIT) continue;
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
}
