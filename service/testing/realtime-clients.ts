import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { io as connect, type Socket } from 'socket.io-client';
import type {
  ClientToServerEvents,
  HelloAck,
  RealtimeEvent,
  ServerToClientEvents,
} from '../../src/shared/events';
import { ADMIN_SECRET, type TestService } from '../test-support';

export type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * Two channels, flows, boards and playlists: device `lobby` plays p1, whose board b1 shows flow f1
 * (widget w1) and uses channel c1; p2 plays b2, which shows f2 and uses c2.
 */
const SEED = [
  "insert into channels (id, type, name, tag) values ('c1', 'default', 'One', 'one'), ('c2', 'default', 'Two', 'two')",
  "insert into flows (id, type, variant, tag, enabled, channel_id) values ('f1', 'default', 'value', 'cpu', true, 'c1'), ('f2', 'default', 'value', 'mem', true, 'c2')",
  `insert into boards (id, name, settings) values ('b1', 'Ops', '{"channel_ids": ["c1"]}'), ('b2', 'Other', '{"channel_ids": ["c2"]}')`,
  `insert into widgets (id, board_id, flow_id, variant, "column", "row", width, height, in_board_index) values ('w1', 'b1', 'f1', 'value', 0, 0, 4, 4, 0), ('w2', 'b2', 'f2', 'value', 0, 0, 4, 4, 0)`,
  `insert into playlists (id, name, items) values ('p1', 'Loop', '[{"type": "board", "board_id": "b1", "channel_id": null, "duration": 10}]'), ('p2', 'Other', '[{"type": "board", "board_id": "b2", "channel_id": null, "duration": 10}]')`,
  "insert into devices (id, tag, playlist_id) values ('d1', 'lobby', 'p1')",
];

/** Seeds the rows above, then `more`: plain SQL that both stores read alike (JSON columns take JSON text). */
export async function seed(service: TestService, more: readonly string[] = []): Promise<void> {
  for (const statement of [...SEED, ...more]) await sql.raw(statement).execute(service.db.kysely);
}

/** Listens on a loopback port; the URL to connect to. */
export async function listen(service: TestService): Promise<string> {
  await service.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(service.app.server.address() as AddressInfo).port}`;
}

/** Opens sockets to one service and disconnects them all at `closeAll` (after each test). */
export function clientsOf(url: () => string) {
  const clients: Client[] = [];
  return {
    open(token: string | null = ADMIN_SECRET): Client {
      const client: Client = connect(url(), {
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
        auth: token === null ? {} : { token },
      });
      clients.push(client);
      return client;
    },
    closeAll(): void {
      for (const client of clients.splice(0)) client.disconnect();
    },
  };
}

/** Cuts a client's connection as a killed process or a pulled cable does: no close handshake. */
export function cut(client: Client): void {
  const engine = client.io.engine as unknown as { transport: { ws?: { terminate(): void } } };
  const ws = engine.transport.ws;
  if (!ws) throw new Error('the client has no WebSocket to cut');
  ws.terminate();
}

export function hello(client: Client, lastEventId: number | null, tag = 'lobby'): Promise<HelloAck> {
  return client.emitWithAck('hello', { device_tag: tag, last_event_id: lastEventId });
}

export function nextEvent(client: Client): Promise<RealtimeEvent> {
  return new Promise((resolve) => client.once('event', resolve));
}

export function connectError(client: Client): Promise<Error & { data?: unknown }> {
  return new Promise((resolve) => client.once('connect_error', resolve));
}

export const notification = (channel: string, title: string) => ({
  type: 'notification.created' as const,
  notification: {
    id: `n-${title}`,
    channel_id: channel,
    title,
    message: 'm',
    icon: null,
    duration: 10,
    sound_url: null,
    created_at: new Date().toISOString(),
  },
});
