import type { RealtimeEvent } from '../../src/shared/events';
import type { Database, Queryable } from '../db/database';
import { EventRepository } from '../repositories/events';

type WithoutId<E> = E extends unknown ? Omit<E, 'id'> : never;
export type RealtimeEventInput = WithoutId<RealtimeEvent>;

/** Where an event goes once it has its id: the socket hub, when one is attached. */
export type EventSink = (event: RealtimeEvent, rooms: readonly string[]) => void;

/** Announces an event of the write under way: logged with it, pushed once it has committed. */
export type Emit = (input: RealtimeEventInput, rooms: readonly string[]) => void;

interface Staged {
  input: RealtimeEventInput;
  rooms: readonly string[];
}

/**
 * Every change a device must hear of goes through here: written to the event log (so a device
 * that was away can replay it), then pushed to the rooms it concerns. A write and its events
 * commit together, once: a device never hears of a write that was rolled back, and no write
 * is ever without its event.
 */
export class EventPublisher {
  private readonly sinks = new Set<EventSink>();

  constructor(private readonly db: Database) {}

  addSink(sink: EventSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  /**
   * Runs `work` in one transaction of the store. The events it emits are appended to the log in
   * that transaction, last (so their ids are drawn just before the commit, in commit order as
   * nearly as the store allows), and pushed to sockets after the commit. When `work` throws,
   * nothing is written and nothing is pushed.
   */
  async transaction<T>(work: (tx: Queryable, emit: Emit) => Promise<T>): Promise<T> {
    const staged: Staged[] = [];
    const { result, events } = await this.db.transaction(async (tx) => {
      const result = await work(tx, (input, rooms) => staged.push({ input, rooms }));
      return { result, events: await this.log(tx, staged) };
    });
    for (const { event, rooms } of events) for (const sink of this.sinks) sink(event, rooms);
    return result;
  }

  /** An event with no write of its own (tests, and what the store changed by itself). */
  async publish(input: RealtimeEventInput, rooms: readonly string[]): Promise<void> {
    await this.transaction(async (_tx, emit) => emit(input, rooms));
  }

  private async log(
    tx: Queryable,
    staged: readonly Staged[],
  ): Promise<{ event: RealtimeEvent; rooms: readonly string[] }[]> {
    const ids = await new EventRepository(tx).appendAll(
      staged.map(({ input: { type, ...payload }, rooms }) => ({ type, payload, rooms })),
    );
    return staged.map(({ input, rooms }, index) => ({
      event: { ...input, id: ids[index] } as RealtimeEvent,
      rooms,
    }));
  }
}
