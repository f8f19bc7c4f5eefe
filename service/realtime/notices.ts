import { currentAccount } from '../accounts/scope';
import type { RealtimeEvent } from '../../src/shared/events';
import type { OperatorNotice, OperatorResource } from '../../src/shared/notices';

/** A notice, and the account whose consoles hear it (undefined: the service's own upkeep, heard by all without an id). */
export type NoticeSink = (notice: OperatorNotice, account: string | undefined) => void;

/**
 * Tells watching consoles that something changed (src/shared/notices.ts). The events of the log
 * reach it by themselves (realtime/operators.ts); an action whose write logs no event (a
 * screenshot, a play, a token, a user, a pairing, a script run) calls `changed` after it committed.
 * Nothing is stored: a console that was away refetches everything when it watches again.
 */
export class NoticeBus {
  private readonly sinks = new Set<NoticeSink>();

  addSink(sink: NoticeSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  /** Told to the consoles of the current account (accounts/scope.ts). */
  changed(resource: OperatorResource, id?: string): void {
    const notice: OperatorNotice = id === undefined ? { resource } : { resource, id };
    const account = currentAccount();
    for (const sink of this.sinks) sink(notice, account);
  }
}

/** What a logged event means to a console: the resource it changed. */
export function noticeOf(event: RealtimeEvent): OperatorNotice {
  switch (event.type) {
    case 'device.changed':
      return { resource: 'devices', id: event.device_tag };
    case 'playlist.changed':
      return { resource: 'playlists', id: event.playlist_id };
    case 'board.changed':
      return { resource: 'boards', id: event.board_id };
    case 'flow.changed':
    case 'metrics.changed':
      return { resource: 'flows', id: event.flow_id };
    case 'notification.created':
      return { resource: 'notifications', id: event.notification.id };
    case 'command.created':
      return { resource: 'commands', id: event.command.id };
  }
}
