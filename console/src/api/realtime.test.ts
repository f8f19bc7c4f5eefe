import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { Server } from 'socket.io';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OperatorNotice, WatchAck } from '../../../src/shared/notices';
import { watchService, type Connection } from './realtime';

/**
 * A socket.io server on a loopback port standing for the service's operators' endpoint: it
 * answers `watch` with `ack` and sends the notices a test asks for. The console connects to the
 * page's origin, which `location` names here.
 */
let io: Server;
let ack: WatchAck;
beforeEach(async () => {
  ack = { ok: true };
  const http = createServer();
  io = new Server(http, { transports: ['websocket'] });
  io.on('connection', (socket) => {
    socket.on('watch', (answer: (ack: WatchAck) => void) => answer(ack));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  vi.stubGlobal('location', { protocol: 'http:', host: `127.0.0.1:${port}`, port: String(port) });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await io.close();
});

const KEYS: QueryKey[] = [
  ['devices'],
  ['devices', 'hall', 'screenshot'],
  ['screenshots'],
  ['playlists'],
  ['media'],
];

/** A query client holding an answer for each key, none of them stale yet. */
async function cached(): Promise<QueryClient> {
  const queries = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  for (const queryKey of KEYS) await queries.prefetchQuery({ queryKey, queryFn: () => 'answer' });
  return queries;
}

const stale = (queries: QueryClient) =>
  KEYS.filter((queryKey) => queries.getQueryState(queryKey)?.isInvalidated).map((key) => key.join('/'));

function watching(queries: QueryClient) {
  const states: Connection[] = [];
  const stop = watchService(queries, (state) => states.push(state));
  return { states, stop };
}

const notify = (notice: OperatorNotice | object) => io.emit('notice', notice);

describe("the console's live connection", () => {
  it('is live once the service accepts the watch, and then refetches everything', async () => {
    const queries = await cached();
    const { states, stop } = watching(queries);
    await vi.waitFor(() => expect(states).toEqual(['live']));
    expect(stale(queries)).toEqual(KEYS.map((key) => key.join('/')));
    stop();
  });

  it('makes stale only what a notice names, and what shows it too', async () => {
    const queries = await cached();
    const { states, stop } = watching(queries);
    await vi.waitFor(() => expect(states).toEqual(['live']));
    for (const queryKey of KEYS) await queries.refetchQueries({ queryKey });
    expect(stale(queries)).toEqual([]);

    notify({ resource: 'screenshots', id: 'hall' });
    await vi.waitFor(() =>
      expect(stale(queries)).toEqual(['devices', 'devices/hall/screenshot', 'screenshots']),
    );
    notify({ resource: 'media' });
    await vi.waitFor(() => expect(stale(queries)).toContain('media'));
    expect(stale(queries)).toContain('playlists');
    stop();
  });

  it('ignores a notice that does not follow the contract', async () => {
    const queries = await cached();
    const { states, stop } = watching(queries);
    await vi.waitFor(() => expect(states).toEqual(['live']));
    for (const queryKey of KEYS) await queries.refetchQueries({ queryKey });
    notify({ resource: 'media', id: 7 });
    notify({ resource: 'everything' });
    // Notices arrive in order: once this one is heard, the two before it were.
    notify({ resource: 'devices' });
    await vi.waitFor(() => expect(stale(queries)).toEqual(['devices', 'devices/hall/screenshot']));
    stop();
  });

  it('is offline when the service refuses the watch, and refetches nothing', async () => {
    ack = { ok: false, error: 'sign in first' };
    const queries = await cached();
    const { states, stop } = watching(queries);
    await vi.waitFor(() => expect(states).toEqual(['offline']));
    expect(stale(queries)).toEqual([]);
    stop();
  });

  it('says it is connecting when the connection drops, and refetches everything once back', async () => {
    const queries = await cached();
    const { states, stop } = watching(queries);
    await vi.waitFor(() => expect(states).toEqual(['live']));
    for (const queryKey of KEYS) await queries.refetchQueries({ queryKey });

    for (const socket of io.sockets.sockets.values()) socket.conn.close();
    await vi.waitFor(() => expect(states).toEqual(['live', 'connecting']));
    // Notices missed meanwhile are not replayed: all of it may have changed.
    await vi.waitFor(() => expect(states).toEqual(['live', 'connecting', 'live']), { timeout: 5000 });
    expect(stale(queries)).toHaveLength(KEYS.length);
    stop();
  });

  it('connects again when the service cuts it (a role changed), and refetches everything', async () => {
    const queries = await cached();
    const { states, stop } = watching(queries);
    await vi.waitFor(() => expect(states).toEqual(['live']));
    for (const queryKey of KEYS) await queries.refetchQueries({ queryKey });
    io.disconnectSockets(true);
    await vi.waitFor(() => expect(states).toEqual(['live', 'connecting', 'live']), { timeout: 5000 });
    expect(stale(queries)).toHaveLength(KEYS.length);
    stop();
  });

  it('closes the connection when stopped: the service sees the console leave, and nothing more is said', async () => {
    const queries = await cached();
    const { states, stop } = watching(queries);
    await vi.waitFor(() => expect(states).toEqual(['live']));
    stop();
    await vi.waitFor(() => expect(io.sockets.sockets.size).toBe(0));
    // The page that stopped watching is gone: it is told no "connecting" it would never leave.
    expect(states).toEqual(['live']);
  });
});
