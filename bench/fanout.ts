// Notification fan-out for bench/service: N sockets connected to one process (the service or its
// floor), and each notification's delivery times to them, counted from its POST being sent.
import { io as connect, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../src/shared/events';

export type BenchSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface Audience {
  /** performance.now() of each arrival, by notification id. */
  arrivals: Map<string, number[]>;
  close(): void;
}

export interface Fanout {
  /** Per delivery, milliseconds from the POST being sent to the socket receiving the event. */
  fromSent: number[];
  /** Per notification, the same for its last socket. */
  last: number[];
  /** Deliveries that had not arrived 5 s after their POST was answered. */
  missing: number;
}

/**
 * Connects `count` websocket clients to `url` (to each of several in turn), 100 at a time, each
 * listening for notifications titled "fanout"; `ready` resolves once the socket is one the process
 * sends to.
 */
export async function openAudience(
  url: string | readonly string[],
  count: number,
  token: string,
  ready: (socket: BenchSocket, index: number) => Promise<unknown>,
): Promise<Audience> {
  const arrivals = new Map<string, number[]>();
  const sockets: BenchSocket[] = [];
  for (let start = 0; start < count; start += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, count - start) }, async (_, i) => {
        const urls = typeof url === 'string' ? [url] : url;
        const socket: BenchSocket = connect(urls[(start + i) % urls.length] ?? '', {
          transports: ['websocket'],
          auth: { token },
          forceNew: true,
        });
        socket.on('event', (event) => {
          if (event.type !== 'notification.created' || event.notification.title !== 'fanout') return;
          const list = arrivals.get(event.notification.id) ?? [];
          list.push(performance.now());
          arrivals.set(event.notification.id, list);
        });
        sockets.push(socket);
        await ready(socket, start + i);
      }),
    );
  }
  return {
    arrivals,
    close: () => {
      for (const socket of sockets) socket.disconnect();
    },
  };
}

/** A request of the bench to the service, with its token; a refusal throws. */
export type BenchApi = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/**
 * A flow `flowTag` shown by a board's one widget, in a playlist of that board: what the devices
 * play, so that they hear the notifications posted to the flow. The playlist's id.
 */
export async function benchPlaylist(api: BenchApi, flowTag: string, name: string): Promise<string> {
  const flow = await api<{ id: string }>('POST', '/flows', { tag: flowTag, variant: 'value' });
  const board = await api<{ id: string }>('POST', '/boards', { name });
  const widget = { flow_id: flow.id, column: 0, row: 0, width: 8, height: 6 };
  await api('POST', `/boards/${board.id}/widgets`, widget);
  const items = [{ type: 'board', board_id: board.id, duration: 30 }];
  return (await api<{ id: string }>('POST', '/playlists', { name, items })).id;
}

/** `count` devices `<prefix>-<n>` on the playlist, made 50 at a time through `post`. */
export async function addDevices(
  post: (body: { tag: string; playlist_id: string }) => Promise<unknown>,
  count: number,
  prefix: string,
  playlistId: string,
): Promise<void> {
  for (let start = 0; start < count; start += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, count - start) }, (_, i) =>
        post({ tag: `${prefix}-${start + i}`, playlist_id: playlistId }),
      ),
    );
  }
}

/** The sockets of the devices addDevices made, each once it said hello. */
export function openDevices(
  url: string | readonly string[],
  count: number,
  token: string,
  prefix: string,
): Promise<Audience> {
  return openAudience(url, count, token, (socket, index) =>
    socket.emitWithAck('hello', { device_tag: `${prefix}-${index}`, last_event_id: null }),
  );
}

/** Resolves once `socket` has connected. */
export function connected(socket: BenchSocket): Promise<void> {
  return new Promise((resolve) => (socket.connected ? resolve() : socket.once('connect', () => resolve())));
}

/**
 * Sends `notifications` notifications one after another through `post` (which answers the created
 * notification's id) and waits for each to reach every socket of `audience` (at most 5 s after
 * its answer) before the next, 50 ms apart.
 */
export async function measureFanout(
  audience: Audience,
  clients: number,
  notifications: number,
  post: (n: number) => Promise<string>,
): Promise<Fanout> {
  const fromSent: number[] = [];
  const last: number[] = [];
  let missing = 0;
  for (let n = 0; n < notifications; n++) {
    const sent = performance.now();
    const id = await post(n);
    const deadline = performance.now() + 5000;
    while ((audience.arrivals.get(id)?.length ?? 0) < clients && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const delays = (audience.arrivals.get(id) ?? []).map((arrived) => arrived - sent);
    fromSent.push(...delays);
    if (delays.length > 0) last.push(Math.max(...delays));
    missing += clients - delays.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { fromSent, last, missing };
}
