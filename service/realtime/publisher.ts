import type { RealtimeEvent } from '../../src/shared/events';
import type { EventRepository } from '../repositories/events';

type WithoutId<E> = E extends unknown ? Omit<E, 'id'> : never;
export type RealtimeEventInput = WithoutId<RealtimeEvent>;

/** Where an event goes once it has its id: the socket hub, when one is attached. */
export type EventSink = (event: RealtimeEvent, rooms: readonly string[]) => void;

/**
 * Every change a device must hear of goes through here: written to the event log first (so a
 * device that was away can replay it), then pushed to the rooms it concerns.
 */
export class EventPublisher {
  private readonly sinks = new Set<EventSink>();

  constructor(private readonly log: EventRepository) {}

  addSink(sink: EventSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  async publish(input: RealtimeEventInput, rooms: readonly string[]): Promise<RealtimeEvent> {
    const { type, ...payload } = input;
    const id = await this.log.append(type, payload, rooms);
    const event = { ...input, id } as RealtimeEvent;
    for (const sink of this.sinks) sink(event, rooms);
    return event;
  }
}
