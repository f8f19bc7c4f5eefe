import type { RealtimeEvent } from '../../src/shared/events';
import type { Notification } from '../../src/shared/notification';
import type { OperatorNotice, OperatorResource } from '../../src/shared/notices';
import { currentAccount, withAccount } from '../accounts/scope';
import type { Database, Queryable } from '../db/database';
import { EventRepository } from '../repositories/events';
import { rooms } from './rooms';

type WithoutId<E> = E extends unknown ? Omit<E, 'id'> : never;

/**
 * A change devices hear of (src/shared/events.ts): logged with its write, so that a device that
 * was away replays it, and pushed to the rooms of what it changed.
 */
export type DeviceChange = WithoutId<RealtimeEvent>;

/** A change only consoles hear of (a token, a user, a play, a pairing): told, never logged. */
export interface ConsoleChange {
  type: 'console';
  resource: OperatorResource;
  /** The changed one; absent when many or unknown. */
  id?: string;
}

/** What an action says it changed: the one way to say it (docs/architecture.md, the change pipeline). */
export type Change = DeviceChange | ConsoleChange;

/** Announces a change of the write under way: told once the write has committed, never if it rolls back. */
export type Emit = (change: Change) => void;

/** Where a device change goes once logged (with its id): this node's bus (realtime/hub.ts). */
export type EventSink = (event: RealtimeEvent, rooms: readonly string[]) => void;

/** A notice, and the account whose consoles hear it (undefined: the service's own upkeep, heard by all without an id). */
export type NoticeSink = (notice: OperatorNotice, account: string | undefined) => void;

const isDeviceChange = (change: Change): change is DeviceChange => change.type !== 'console';

/** A notification's room: its channel's, or that of the screens it went to (`target`). */
function notificationRooms({ channel_id: channelId, target }: Notification): string[] {
  if (channelId !== null) return [rooms.channel(channelId)];
  if (target === undefined) return [];
  if ('group_id' in target) return [rooms.group(target.group_id)];
  if ('device_tag' in target) return [rooms.device(target.device_tag)];
  return 'all' in target ? [rooms.screens()] : [];
}

/** The rooms of the device sockets that hear a change: those of what it changed (realtime/rooms.ts). */
export function roomsOf(change: DeviceChange): string[] {
  switch (change.type) {
    case 'device.changed':
      return [rooms.device(change.device_tag)];
    case 'playlist.changed':
      return [rooms.playlist(change.playlist_id)];
    case 'board.changed':
      return [rooms.board(change.board_id)];
    case 'flow.changed':
    case 'metrics.changed':
      return [rooms.flow(change.flow_id)];
    case 'notification.created':
      return notificationRooms(change.notification);
    case 'command.created':
      return [rooms.device(change.command.device_tag)];
  }
}

/** What a change means to a console: the resource it changed (src/shared/notices.ts). */
export function noticeOf(change: Change): OperatorNotice {
  const notice = (resource: OperatorResource, id: string | undefined): OperatorNotice =>
    id === undefined ? { resource } : { resource, id };
  switch (change.type) {
    case 'console':
      return notice(change.resource, change.id);
    case 'device.changed':
      return notice('devices', change.device_tag);
    case 'playlist.changed':
      return notice('playlists', change.playlist_id);
    case 'board.changed':
      return notice('boards', change.board_id);
    case 'flow.changed':
    case 'metrics.changed':
      return notice('flows', change.flow_id);
    case 'notification.created':
      return notice('notifications', change.notification.id);
    case 'command.created':
      return notice('commands', change.command.id);
  }
}

interface Staged {
  change: Change;
  /** The account the change was made for: its consoles hear it (accounts/scope.ts). */
  account: string | undefined;
  /** A device change's rooms, named as the change was made (a device's room names its account). */
  rooms: readonly string[];
}

/**
 * The change pipeline: every action says what it changed here, once, inside its write's
 * transaction. From each change the pipeline derives the rest after the commit: a device change is
 * logged with the write (its id drawn last, in commit order) and goes to the event sinks (the bus,
 * to every node's device sockets); every change, of either kind, becomes one notice for the
 * watching consoles of its account (the bus again). A write that rolls back tells nothing.
 */
export class ChangePipeline {
  private readonly eventSinks = new Set<EventSink>();
  private readonly noticeSinks = new Set<NoticeSink>();

  constructor(private readonly db: Database) {}

  onEvent(sink: EventSink): () => void {
    this.eventSinks.add(sink);
    return () => this.eventSinks.delete(sink);
  }

  onNotice(sink: NoticeSink): () => void {
    this.noticeSinks.add(sink);
    return () => this.noticeSinks.delete(sink);
  }

  /**
   * Runs `work` in one transaction of the store, with `emit` for what it changes. Device changes
   * are appended to the event log in that transaction, last; everything emitted is told after the
   * commit. When `work` throws, nothing is written and nothing is told.
   */
  async transaction<T>(work: (tx: Queryable, emit: Emit) => Promise<T>): Promise<T> {
    const staged: Staged[] = [];
    const emit: Emit = (change) =>
      staged.push({
        change,
        account: currentAccount(),
        rooms: isDeviceChange(change) ? roomsOf(change) : [],
      });
    const { result, events } = await this.db.transaction(async (tx) => {
      const result = await work(tx, emit);
      return { result, events: await this.log(tx, staged) };
    });
    this.tell(events, staged);
    return result;
  }

  /**
   * A change with no write of its own in this transaction (a write that was committed by other
   * means, tests): a device change is still logged; a console change needs no transaction.
   */
  async publish(change: Change): Promise<void> {
    if (isDeviceChange(change)) await this.transaction(async (_tx, emit) => emit(change));
    else this.tell([], [{ change, account: currentAccount(), rooms: [] }]);
  }

  private tell(
    events: readonly { event: RealtimeEvent; rooms: readonly string[] }[],
    staged: readonly Staged[],
  ): void {
    for (const { event, rooms: eventRooms } of events) {
      for (const sink of this.eventSinks) sink(event, eventRooms);
    }
    for (const { change, account } of staged) {
      const notice = noticeOf(change);
      for (const sink of this.noticeSinks) sink(notice, account);
    }
  }

  private async log(
    tx: Queryable,
    staged: readonly Staged[],
  ): Promise<{ event: RealtimeEvent; rooms: readonly string[] }[]> {
    const logged = staged.flatMap(({ change, account, rooms: eventRooms }) =>
      isDeviceChange(change) ? [{ input: change, account, rooms: eventRooms }] : [],
    );
    // Each account's events as that account (a batch of writes may hold several): a device
    // replays its own account's only.
    const events: { event: RealtimeEvent; rooms: readonly string[] }[] = [];
    for (const account of new Set(logged.map((entry) => entry.account))) {
      const own = logged.filter((entry) => entry.account === account);
      const append = () =>
        new EventRepository(tx).appendAll(
          own.map(({ input: { type, ...payload }, rooms: eventRooms }) => ({
            type,
            payload,
            rooms: eventRooms,
          })),
        );
      const ids = await (account === undefined ? append() : withAccount(account, append));
      own.forEach(({ input, rooms: eventRooms }, index) =>
        events.push({ event: { ...input, id: ids[index] } as RealtimeEvent, rooms: eventRooms }),
      );
    }
    return events.sort((a, b) => a.event.id - b.event.id);
  }
}
