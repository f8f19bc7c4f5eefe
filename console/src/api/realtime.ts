import type { QueryClient } from '@tanstack/react-query';
import { io, type Socket } from 'socket.io-client';
import { operatorNoticeSchema, watchAckSchema, type OperatorResource } from '../../../src/shared/notices';

/**
 * Which cached queries a notice makes stale, by the first part of their key: a query's key
 * starts with the resource it shows (`['devices', tag]`), so a notice invalidates every query of
 * that resource. A screen's summary also shows its newest screenshot, commands and plays.
 */
const ALSO_STALE: Partial<Record<OperatorResource, readonly string[]>> = {
  screenshots: ['devices'],
  commands: ['devices'],
  pairings: ['devices'],
  media: ['playlists'],
  // Where each medium is used.
  playlists: ['media'],
  boards: ['media'],
};

export type Connection = 'connecting' | 'live' | 'offline';

/**
 * Keeps the console's cached server state live: a socket.io connection to the service on this
 * origin (signed in by the session cookie) that watches the operators' notices. After every
 * (re)connection everything is refetched, since notices missed meanwhile are not replayed.
 */
export function watchService(queries: QueryClient, onConnection: (state: Connection) => void): () => void {
  const socket: Socket = io({ transports: ['websocket'], withCredentials: true });
  socket.on('connect', () => {
    socket.emit('watch', (raw: unknown) => {
      const ack = watchAckSchema.safeParse(raw);
      if (!ack.success || !ack.data.ok) return onConnection('offline');
      onConnection('live');
      void queries.invalidateQueries();
    });
  });
  socket.on('disconnect', (reason) => {
    onConnection('connecting');
    // The service cut it (a change of the user's role or groups, or the session's end), and
    // socket.io does not come back on its own then: connect again, seeing what is now allowed;
    // an ended session is refused, and its requests lead to the sign-in page.
    if (reason === 'io server disconnect') socket.connect();
  });
  socket.on('connect_error', () => onConnection('offline'));
  socket.on('notice', (raw: unknown) => {
    const notice = operatorNoticeSchema.safeParse(raw);
    if (!notice.success) return;
    const { resource } = notice.data;
    for (const key of [resource, ...(ALSO_STALE[resource] ?? [])]) {
      void queries.invalidateQueries({ queryKey: [key] });
    }
  });
  return () => {
    // Closing fires `disconnect`: a console that stopped watching is told nothing more.
    socket.off('disconnect');
    socket.close();
  };
}
