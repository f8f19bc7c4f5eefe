import type { BridgeMessage, PlayerState, Unsubscribe } from '../shared/bridge';

/** What a listener of an event gets: nothing for an event that carries nothing. */
type Args<T> = [T] extends [undefined] ? [] : [T];
type Listener<T> = (...args: Args<T>) => void;

/**
 * A typed event bus: each event is named once in a map with what it carries, so the part that
 * tells something need not know who reacts, and the compiler checks both ends. Listeners are
 * called in the order they were added; a listener added while an event is told hears it too.
 */
export class TypedEvents<Events extends object> {
  private readonly listeners: { [K in keyof Events]?: Set<Listener<Events[K]>> } = {};

  on<K extends keyof Events>(name: K, listener: Listener<Events[K]>): Unsubscribe {
    const set = (this.listeners[name] ??= new Set<Listener<Events[K]>>());
    set.add(listener);
    return () => void set.delete(listener);
  }

  emit<K extends keyof Events>(name: K, ...args: Args<Events[K]>): void {
    for (const listener of this.listeners[name] ?? []) listener(...args);
  }
}

/** What the agent's parts tell each other, across sessions. */
export interface AgentEvents {
  /** A state the renderer is told (told before its `message`): the schedule and the heartbeats follow it. */
  state: PlayerState;
  /** Every message for the renderer: the state store's, notifications, remote commands'. */
  message: BridgeMessage;
  /** The service's word on this screen's token: refused (a 401, the socket turned away) or taken again. */
  token: { server: string; refused: boolean };
}

/** Tells the renderer a message through the agent's events, a state first to those that follow states. */
export function tellRenderer(events: TypedEvents<AgentEvents>, message: BridgeMessage): void {
  if (message.kind === 'state') events.emit('state', message.state);
  events.emit('message', message);
}
