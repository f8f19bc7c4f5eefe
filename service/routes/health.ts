import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { writesCheck } from '../cluster/write-probe';
import type { ServiceContext } from '../context';

/** Longer than this, the store counts as down: a load balancer's check must not hang on it. */
const STORE_PROBE_MS = 2_000;

const healthSchema = z.object({
  /** `ok` when this node takes traffic; `draining` while it stops; `unavailable` when a check fails. */
  status: z.enum(['ok', 'draining', 'unavailable']),
  database: z.enum(['sqlite', 'postgres']),
  /** This node's id: the host, its process, and a random part. */
  node: z.string(),
  /** Whether this node runs the work done once across the nodes (docs/deployment.md). */
  leading: z.boolean(),
  /** Each part this node needs, `ok` or why not. */
  checks: z.record(z.string(), z.string()),
});

/** Why the store does not answer, or null when it does within STORE_PROBE_MS. */
async function storeProbe(ctx: ServiceContext): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`the store did not answer within ${STORE_PROBE_MS} ms`), STORE_PROBE_MS);
  });
  try {
    return await Promise.race([sql`select 1`.execute(ctx.db.kysely).then(() => null), late]);
  } catch (error) {
    return `the store refused: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    clearTimeout(timer);
  }
}

export function healthRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  ctx.node.addProbe('store', () => storeProbe(ctx));
  // The store may answer reads while refusing every write (a full disk, a read-only standby).
  ctx.node.addProbe('writes', () => writesCheck(ctx));
  return async (app) => {
    app.get(
      '/health',
      {
        config: { permission: 'public' },
        schema: {
          tags: ['health'],
          summary:
            'Whether this node takes traffic: its store (and realtime between nodes) answer; needs no token',
          description:
            '503 while the node drains (it was asked to stop) or when a check fails, so that a load ' +
            'balancer takes it out: `checks` says which and why. `writes` fails once a write was ' +
            'refused for a full disk or a read-only store, and recovers by itself once a small probe ' +
            'write succeeds (tried at most every 5 s while it fails).',
          response: { 200: healthSchema, 503: healthSchema },
        },
      },
      async (_request, reply) => {
        const { ready, draining, checks } = await ctx.node.readiness();
        const status = ready ? 'ok' : draining ? 'draining' : 'unavailable';
        const body = {
          status,
          database: ctx.db.kind,
          node: ctx.node.id,
          leading: ctx.jobs.isLeading(),
          checks,
        } as const;
        return reply.status(ready ? 200 : 503).send(body);
      },
    );
  };
}
