import type { InjectOptions } from 'fastify';
import type { RealtimeEvent } from '../../src/shared/events';
import { buildApp, type App, type AppOptions } from '../app';
import { ensureToken } from '../bootstrap';
import { openStore } from '../db/open';
import { ADMIN_SECRET, createTestDatabase, TEST_POSTGRES_URL } from '../test-support';
import { screensPlaying } from './cluster-kit';
import type { Client } from './realtime-clients';

export interface Node {
  app: App;
  url: string;
}

/**
 * Service nodes on one PostgreSQL database of their own, in the test's process, each listening
 * on loopback (service/cluster.test.ts runs real processes behind HAProxy instead).
 */
export class NodesInProcess {
  readonly nodes: Node[] = [];
  private database: Awaited<ReturnType<typeof createTestDatabase>> | null = null;

  constructor(private readonly options: Pick<AppOptions, 'clock' | 'config'>) {}

  /**
   * A fresh database, nodes A and B on it, the admin token, and a device `lobby` playing a
   * playlist of one board.
   */
  async twoWithLobby(): Promise<[Node, Node]> {
    this.database = await createTestDatabase(TEST_POSTGRES_URL ?? '');
    const a = await this.start();
    const b = await this.start();
    await ensureToken(a.app.wallboard.db, ADMIN_SECRET, 'full', 'test admin');
    await screensPlaying(a.url, ADMIN_SECRET, ['lobby']);
    return [a, b];
  }

  /** The database the nodes run on (made by twoWithLobby). */
  get databaseUrl(): string {
    if (!this.database) throw new Error('twoWithLobby() makes the database the nodes start on');
    return this.database.url;
  }

  async start(): Promise<Node> {
    const db = await openStore({ databaseUrl: this.databaseUrl });
    const app = await buildApp({ db, ...this.options });
    app.addHook('onClose', () => db.close());
    await app.listen({ port: 0, host: '127.0.0.1' });
    const node = { app, url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` };
    this.nodes.push(node);
    return node;
  }

  async stop(node: Node): Promise<void> {
    this.nodes.splice(this.nodes.indexOf(node), 1);
    await node.app.close();
  }

  /** Every node closed, then the database dropped. */
  async close(): Promise<void> {
    for (const node of this.nodes.splice(0)) await node.app.close();
    await this.database?.drop();
  }
}

/** A request to `node` as the admin. */
export const call = (node: Node, method: InjectOptions['method'], url: string, body?: unknown) =>
  node.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${ADMIN_SECRET}` },
    ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
  });

/** The events `client` hears from now on. */
export function heard(client: Client): RealtimeEvent[] {
  const events: RealtimeEvent[] = [];
  client.on('event', (event) => events.push(event));
  return events;
}
