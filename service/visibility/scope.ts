import { AsyncLocalStorage } from 'node:async_hooks';
import type { Queryable } from '../db/database';

/** What a device plays now: the rooms its socket joins (realtime/subscriptions.ts), and its group. */
export interface DeviceView {
  tag: string;
  group: string | null;
  playlists: ReadonlySet<string>;
  boards: ReadonlySet<string>;
  /** Flow id to tag, and channel id to tag: routes name flows by tag, channels by either. */
  flows: ReadonlyMap<string, string>;
  channels: ReadonlyMap<string, string>;
}

/**
 * What a token bound to a device (`device_tag`, docs/api.md) may see: its device and what that
 * device plays. Anything else is, for it, as if it did not exist, so that one screen's token
 * cannot probe for others. Tokens bound to no device see everything their scope grants.
 */
export class Visibility {
  constructor(private readonly view: DeviceView | null) {}

  static readonly everything = new Visibility(null);

  /** The device the token acts for alone, or null. */
  get boundTo(): string | null {
    return this.view?.tag ?? null;
  }

  device(tag: string): boolean {
    return !this.view || this.view.tag === tag;
  }

  group(id: string): boolean {
    return !this.view || this.view.group === id;
  }

  playlist(id: string): boolean {
    return !this.view || this.view.playlists.has(id);
  }

  board(id: string): boolean {
    return !this.view || this.view.boards.has(id);
  }

  flow(id: string): boolean {
    return !this.view || this.view.flows.has(id);
  }

  flowTag(tag: string): boolean {
    return !this.view || [...this.view.flows.values()].includes(tag);
  }

  /** A channel named by id or by tag, as the notification routes accept it. */
  channel(idOrTag: string): boolean {
    if (!this.view) return true;
    return this.view.channels.has(idOrTag) || [...this.view.channels.values()].includes(idOrTag);
  }

  /** The screen it is bound to and that screen's group, or null (it sees everything). */
  screen(): { tag: string; group: string | null } | null {
    return this.view ? { tag: this.view.tag, group: this.view.group } : null;
  }

  /** The channels it may read notifications of; undefined: every channel. */
  channelIds(): string[] | undefined {
    return this.view ? [...this.view.channels.keys()] : undefined;
  }
}

interface Bound {
  tag: string;
  load: (db: Queryable) => Promise<DeviceView>;
  loaded?: Promise<Visibility>;
}

const scope = new AsyncLocalStorage<Bound>();

/**
 * Runs `work` as a token bound to the device `tag` (set for each request by the auth hook): the
 * reads of the repositories in it see what that device plays only, and `load` tells what that is.
 * It is read once, at the first read that needs it, from the store as it is then.
 */
export function withBoundDevice<T>(
  tag: string,
  load: (db: Queryable) => Promise<DeviceView>,
  work: () => T,
): T {
  return scope.run({ tag, load }, work);
}

/** The device the work under way is bound to, or undefined (it sees everything). */
export function boundDevice(): string | undefined {
  return scope.getStore()?.tag;
}

/**
 * What the work under way may see: everything unless it is bound to a device. Read through `db`,
 * the reading repository's: inside a transaction that is the transaction, since the embedded
 * store's one connection is held by it and a read beside it would wait for it forever.
 */
export function currentVisibility(db: Queryable): Promise<Visibility> {
  const bound = scope.getStore();
  if (!bound) return Promise.resolve(Visibility.everything);
  // Read outside the scope: the reads that tell what the device plays are not to be filtered.
  bound.loaded ??= scope.exit(() => bound.load(db)).then((view) => new Visibility(view));
  return bound.loaded;
}
