import { withAccount } from '../accounts/scope';

/** What the subscriber needs of a socket: its account and device, and the rooms it is in. */
export interface Subscribable {
  readonly connected: boolean;
  data: { account: string; deviceTag: string | null; rooms: Set<string> };
  join(room: string): unknown;
  leave(room: string): unknown;
}

/** The rooms of each tag (realtime/subscriptions.ts), for any number of tags at once. */
export type RoomsOf = (tags: readonly string[]) => Promise<Map<string, string[]>>;

interface Batch<S> {
  sockets: Set<S>;
  done: Promise<void>;
  settle(error?: unknown): void;
}

function batchOf<S>(): Batch<S> {
  let settle!: Batch<S>['settle'];
  const done = new Promise<void>((resolve, reject) => {
    settle = (error) => (error === undefined ? resolve() : reject(error));
  });
  // A batch no hello waits on (only resubscriptions, which log their own failure) must not fail
  // the process with an unhandled rejection.
  done.catch(() => undefined);
  return { sockets: new Set(), done, settle };
}

/**
 * Puts sockets in the rooms of their devices, many at a time: every socket asked for while a
 * batch runs (or within the same tick) goes in the next one, whose rooms take a bounded number of
 * queries however many sockets and events it holds. One batch runs at a time, so a batch's query
 * always starts after the commits that asked for it, and results are applied in order.
 */
export class Subscriber<S extends Subscribable> {
  private next: Batch<S> | null = null;
  private running: Batch<S> | null = null;
  private scheduled = false;

  constructor(
    private readonly roomsOf: RoomsOf,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Resolves once the sockets are in their rooms, computed by queries that began after this call. */
  update(sockets: Iterable<S>): Promise<void> {
    this.next ??= batchOf();
    for (const socket of sockets) this.next.sockets.add(socket);
    if (!this.scheduled) {
      this.scheduled = true;
      // Next tick: the events of one commit, and hellos arriving together, share a batch.
      setImmediate(() => void this.run());
    }
    return this.next.done;
  }

  /**
   * After a change of what devices show: the sockets that were in its rooms, and those of the
   * batch under way, whose query may have read the store before the change committed.
   */
  resubscribe(inRooms: Iterable<S>): void {
    this.update([...inRooms, ...(this.running?.sockets ?? [])]).catch(this.onError);
  }

  private async run(): Promise<void> {
    try {
      for (let batch = this.next; batch; batch = this.next) {
        this.next = null;
        this.running = batch;
        try {
          await this.apply(batch.sockets);
          batch.settle();
        } catch (error) {
          batch.settle(error);
        }
        this.running = null;
      }
    } finally {
      this.scheduled = false;
    }
  }

  private async apply(sockets: ReadonlySet<S>): Promise<void> {
    const live = [...sockets].filter((socket) => socket.connected && socket.data.deviceTag !== null);
    // A tag names a device within its account: each account's are looked up as that account.
    for (const account of new Set(live.map((socket) => socket.data.account))) {
      await this.applyIn(
        account,
        live.filter((socket) => socket.data.account === account),
      );
    }
  }

  private async applyIn(account: string, live: readonly S[]): Promise<void> {
    const tags = [...new Set(live.map((socket) => socket.data.deviceTag as string))];
    const roomsByTag = await withAccount(account, () => this.roomsOf(tags));
    for (const socket of live) {
      // One that left during the query must not be put back in rooms (socket.io would keep it).
      if (!socket.connected) continue;
      const wanted = new Set(roomsByTag.get(socket.data.deviceTag as string) ?? []);
      // A socket that said hello as another device meanwhile is in the next batch already.
      if (wanted.size === 0) continue;
      for (const room of socket.data.rooms) if (!wanted.has(room)) void socket.leave(room);
      for (const room of wanted) if (!socket.data.rooms.has(room)) void socket.join(room);
      socket.data.rooms = wanted;
    }
  }
}
