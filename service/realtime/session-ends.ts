import type { BusMessage } from '../cluster/bus-messages';
import type { ClusterBus } from '../cluster/node-state';

/** A session signed out, or every session of a user (deleted, or its password changed). */
export type SessionEnd = BusMessage<'sessions.ended'>;

/**
 * Says when sessions end by an act of this service, so that the consoles' sockets signed in by
 * them are cut at once (realtime/operators.ts), as a deleted token's are, on every node of the
 * service: the end goes through the bus between nodes. A session that expires is refused at its
 * socket's next connection or watch.
 */
export class SessionEnds {
  private readonly listeners = new Set<(end: SessionEnd) => void>();

  constructor(private readonly bus: ClusterBus) {
    bus.subscribe('sessions.ended', (end) => {
      for (const listener of this.listeners) listener(end);
    });
  }

  listen(listener: (end: SessionEnd) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  ended(end: SessionEnd): void {
    this.bus.publish('sessions.ended', end);
  }
}
