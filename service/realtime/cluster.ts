import { createAdapter } from '@socket.io/postgres-adapter';
import pg from 'pg';
import type { ServiceContext } from '../context';
import type { Hub } from './hub';

/** What the nodes say to each other over socket.io (besides what the adapter carries itself). */
export interface InterServerEvents {
  /** A message of the bus between nodes (cluster/node-state.ts). */
  bus: (topic: string, payload: unknown) => void;
}

/** Longer than this, the adapter's connection counts as down for GET /health. */
const PROBE_MS = 2_000;
/** How long a closing node waits for the adapter's first LISTEN, and then for its pool to end. */
const SETTLE_MS = 3_000;

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Whether the adapter holds its LISTEN connection: its PubSubClient's `client`, a private field of
 * @socket.io/postgres-adapter 0.5.0 (pinned), read here only.
 */
function listening(io: Hub): boolean {
  const adapter = io.of('/').adapter as unknown as { client?: { client?: unknown } };
  return adapter.client?.client !== undefined;
}

/**
 * Several nodes on one PostgreSQL: socket.io's PostgreSQL adapter carries every `io.to(rooms)`
 * emit (devices' events, consoles' notices) and `disconnectSockets` to the sockets of every node,
 * over LISTEN/NOTIFY on a pool of its own, and the bus between nodes rides on its server-side
 * emits. Nothing of this runs on the embedded store, which has one node.
 */
export function connectNodes(
  io: Hub,
  ctx: ServiceContext,
  url: string,
): { settle(): Promise<void>; close(): Promise<void> } {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  // A connection the server drops is replaced; the adapter reconnects its listener itself.
  pool.on('error', (error) => ctx.log.error({ err: error }, 'a connection of the realtime adapter failed'));
  io.adapter(
    createAdapter(pool, {
      errorHandler: (error) => ctx.log.error({ err: error }, 'the realtime adapter failed'),
    }),
  );
  ctx.node.bus.carry((topic, payload) => io.serverSideEmit('bus', topic, payload));
  io.on('bus', (topic, payload) => ctx.node.bus.deliver(topic, payload));
  ctx.node.addProbe('realtime', async () => {
    if (!listening(io)) return 'the realtime adapter is not listening (it reconnects by itself)';
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(
        () => resolve(`the realtime adapter's store did not answer within ${PROBE_MS} ms`),
        PROBE_MS,
      );
    });
    try {
      return await Promise.race([pool.query('select 1').then(() => null), late]);
    } catch (error) {
      return `the realtime adapter's store refused: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      clearTimeout(timer);
    }
  });
  return {
    /**
     * Resolves once the adapter holds its LISTEN connection, or after SETTLE_MS: at the app's start
     * (it is ready once it hears the others), and before io.close(), as a connection the adapter
     * gets after its close would never be given back (the pool's end would wait for it forever).
     */
    async settle() {
      for (const start = Date.now(); !listening(io) && Date.now() - start < SETTLE_MS;) await delay(20);
    },
    async close() {
      ctx.node.bus.carry(null);
      const ended = await Promise.race([pool.end().then(() => true), delay(SETTLE_MS).then(() => false)]);
      if (!ended) ctx.log.error({ err: null }, 'the realtime adapter still held connections after its close');
    },
  };
}
