import { createAdapter } from '@socket.io/postgres-adapter';
import pg from 'pg';
import type { Server } from 'socket.io';
import type { ServiceContext } from '../context';

/** What the nodes say to each other over socket.io (besides what the adapter carries itself). */
export interface InterServerEvents {
  /** Messages of the bus between nodes (cluster/node-state.ts), in the order they were published. */
  bus: (messages: BusMessages) => void;
}

export type BusMessages = [topic: string, payload: unknown][];

/**
 * Under this many bytes of JSON, a batch of bus messages goes as one NOTIFY: PostgreSQL takes at
 * most 8,000 bytes in one, and the adapter stores a larger one in a table (an insert, then a read
 * on every node).
 */
const BATCH_BYTES = 6_000;

/**
 * `send`, for messages published one by one: those of one turn of the event loop go together, as
 * one message between the nodes (one NOTIFY) up to BATCH_BYTES, in their order. A write of many
 * flows, or many writes committed together, publish an event and a notice each.
 */
export function batched(send: (messages: BusMessages) => void): (topic: string, payload: unknown) => void {
  let messages: BusMessages = [];
  let bytes = 0;
  const flush = () => {
    if (messages.length > 0) send(messages);
    messages = [];
    bytes = 0;
  };
  return (topic, payload) => {
    const size = topic.length + JSON.stringify(payload).length;
    if (bytes > 0 && bytes + size > BATCH_BYTES) flush();
    if (messages.length === 0) setImmediate(flush);
    messages.push([topic, payload]);
    bytes += size;
  };
}

/**
 * The socket.io server of realtime/hub.ts, as far as connecting the nodes uses it: its adapter
 * and the events between the nodes, whatever its devices' and consoles' events are.
 */
type NodesServer = Pick<Server<never, never, InterServerEvents>, 'adapter' | 'serverSideEmit' | 'on'>;

/** Longer than this, the adapter's connection counts as down for GET /health. */
const PROBE_MS = 2_000;

/** How a node's adapter connections name themselves to PostgreSQL (pg_stat_activity, at most 63 bytes). */
export const adapterApplication = (nodeId: string) => `wallboard realtime ${nodeId}`.slice(0, 63);

type ConnectCallback = Parameters<pg.Pool['connect']>[0];

/**
 * How long a node waits for the adapter's connection under way (at its start and at its close),
 * and for its pool to end.
 */
const SETTLE_MS = 3_000;

/** Unreferenced: a wait that lost its race must not keep a stopping process up. */
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
/** A connection never handed over: the adapter, closed, waits on it for good instead of retrying. */
const withheld = () => new Promise<pg.PoolClient>(() => undefined);

/**
 * The adapter's connections. It takes one with `connect()` and keeps it to LISTEN on; its
 * queries (`query`) take others for a moment. That one is watched here: out of the pool it has no
 * listener for its errors, so one the server drops would end the process; the adapter takes
 * another when it ends but never gives it back, so its place in the pool would stay taken; one
 * it gets after its close is never given back either, so the pool's end would wait for it
 * forever; and whether it listens is whether this node hears the others.
 */
class AdapterPool extends pg.Pool {
  private listener: pg.PoolClient | null = null;
  /** The adapter's connection under way: settled once it listens, or failed. */
  private attempt: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    url: string,
    private readonly ctx: ServiceContext,
    /** Called each time the adapter listens again (at first, and after its connection was lost). */
    private readonly onListening: () => void,
  ) {
    super({ connectionString: url, max: 4, application_name: adapterApplication(ctx.node.id) });
    // An idle connection the server drops is replaced at the next query.
    this.on('error', (error) =>
      ctx.log.error({ err: error }, 'an idle connection of the realtime adapter failed'),
    );
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    // `query` takes its connections with a callback; the adapter takes its listener without.
    if (callback) return super.connect(callback);
    if (this.closed) return withheld();
    const connecting = super.connect().then((client) => {
      if (!this.closed) return this.hold(client);
      client.release();
      return withheld();
    });
    this.attempt = connecting.then(
      (client) => this.confirm(client),
      () => undefined,
    );
    return connecting;
  }

  /** Why this node does not hear the others now, or null when it does. */
  async notListening(): Promise<string | null> {
    const listener = this.listener;
    if (!listener)
      return 'the realtime adapter has no connection to PostgreSQL (it connects again by itself)';
    const { rows } = await listener.query('select pg_listening_channels()');
    return rows.length > 0 ? null : 'the realtime adapter is not listening yet';
  }

  /** Resolves once the adapter's connection under way listens (or failed), or after SETTLE_MS. */
  async settled(): Promise<void> {
    await Promise.race([this.attempt, delay(SETTLE_MS)]);
  }

  /**
   * Before the adapter closes: waits a little for its connection under way (a node stopped at once
   * after its start), which it gives back at its close; one it would get later is withheld.
   */
  async beforeClose(): Promise<void> {
    await this.settled();
    this.closed = true;
  }

  private hold(client: pg.PoolClient): pg.PoolClient {
    this.listener = client;
    client.on('error', (error) =>
      this.ctx.log.error({ err: error }, 'the realtime adapter lost its connection'),
    );
    client.once('end', () => {
      if (this.listener === client) this.listener = null;
      client.release(new Error('the realtime adapter lost its connection'));
    });
    return client;
  }

  /**
   * Tells `onListening` once the adapter listens on `client`: it sends its LISTEN as soon as it
   * has the connection, and queries on one connection run in turn, so a query sent after that
   * answers after it.
   */
  private confirm(client: pg.PoolClient): Promise<void> {
    return new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.notListening())
      .then(
        (why) => {
          if (why === null && this.listener === client) this.onListening();
        },
        // Lost again at once: its end is handled in hold, and the adapter tries again.
        () => undefined,
      );
  }
}

/**
 * Several nodes on one PostgreSQL: socket.io's PostgreSQL adapter carries the bus between nodes
 * (and with it every node's events, realtime/delivery.ts), the consoles' notices and
 * `disconnectSockets` to every node, over LISTEN/NOTIFY on a pool of its own. Its table for
 * large messages comes with the store's migrations (db/migrations/cluster.ts). `onListening`
 * is called each time the adapter listens again: what was said meanwhile was not heard. Nothing
 * of this runs on the embedded store, which has one node.
 */
export function connectNodes(
  io: NodesServer,
  ctx: ServiceContext,
  url: string,
  onListening: () => void,
): { listening(): Promise<void>; settle(): Promise<void>; close(): Promise<void> } {
  const pool = new AdapterPool(url, ctx, onListening);
  io.adapter(
    createAdapter(pool, {
      errorHandler: (error) => ctx.log.error({ err: error }, 'the realtime adapter failed'),
    }),
  );
  ctx.node.bus.carry(batched((messages) => io.serverSideEmit('bus', messages)));
  io.on('bus', (messages) => {
    if (!Array.isArray(messages)) {
      ctx.log.error({ err: null }, 'a message between the nodes that is no list of bus messages was dropped');
      return;
    }
    for (const message of messages as unknown[]) {
      const [topic, payload] = Array.isArray(message) ? (message as unknown[]) : [];
      const refused = ctx.node.bus.heard(String(topic), payload);
      if (refused) ctx.log.error({ err: null }, refused);
    }
  });
  ctx.node.addProbe('realtime', async () => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(
        () => resolve(`the realtime adapter's connection did not answer within ${PROBE_MS} ms`),
        PROBE_MS,
      );
    });
    try {
      return await Promise.race([pool.notListening(), late]);
    } catch (error) {
      return `the realtime adapter's connection failed: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      clearTimeout(timer);
    }
  });
  return {
    /** At the app's start: a node takes traffic once it hears the others (at most SETTLE_MS later). */
    listening: () => pool.settled(),
    /** Before io.close(). */
    settle: () => pool.beforeClose(),
    /** After io.close(), which closes the adapter (it gives its connection back to the pool). */
    async close() {
      ctx.node.bus.carry(null);
      const ended = await Promise.race([pool.end().then(() => true), delay(SETTLE_MS).then(() => false)]);
      if (!ended) ctx.log.error({ err: null }, 'the realtime adapter still held connections after its close');
    },
  };
}
