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

/**
 * Several nodes on one PostgreSQL: socket.io's PostgreSQL adapter carries every `io.to(rooms)`
 * emit (devices' events, consoles' notices) and `disconnectSockets` to the sockets of every node,
 * over LISTEN/NOTIFY on a pool of its own, and the bus between nodes rides on its server-side
 * emits. Nothing of this runs on the embedded store, which has one node.
 */
export function connectNodes(io: Hub, ctx: ServiceContext, url: string): { close(): Promise<void> } {
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
    // The adapter holds one connection for its LISTEN from the pool; none held means it lost it.
    if (pool.totalCount - pool.idleCount < 1) return 'the realtime adapter is not listening';
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
    async close() {
      ctx.node.bus.carry(null);
      await pool.end();
    },
  };
}
