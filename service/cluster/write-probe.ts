import { randomBytes } from 'node:crypto';
import type { ServiceContext } from '../context';
import { whyWritesFail } from '../db/constraint-errors';

/**
 * How often, at most, a node whose writes failed tries a write of its own to learn whether they
 * work again. Only then: a node whose writes succeed never probes, so the probe costs nothing.
 */
export const WRITE_PROBE_INTERVAL_MS = 5_000;
/**
 * What the probe writes, then deletes: more than a page, so that a store with no page left to
 * give refuses it as it refuses real writes, and little enough to fit wherever a write would.
 */
const PROBE_BYTES = 16 * 1024;
/** Longer than this, the probe counts as failed: a load balancer's check must not hang on it. */
const PROBE_MS = 2_000;

/**
 * Writes a row of PROBE_BYTES and deletes it, each committed: to the leases, which are no
 * account's and which every node writes already; under a name no lease has, one per node.
 */
async function probeWrite(ctx: ServiceContext, at: Date): Promise<void> {
  const name = `write-probe:${ctx.node.id}`;
  const row = { holder: randomBytes(PROBE_BYTES / 2).toString('hex'), expires_at: at.toISOString() };
  await ctx.db.kysely
    .insertInto('leases')
    .values({ name, ...row })
    .onConflict((conflict) => conflict.column('name').doUpdateSet(row))
    .execute();
  await ctx.db.kysely.deleteFrom('leases').where('name', '=', name).execute();
}

function withinProbeTime(work: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`the probe write took over ${PROBE_MS} ms`)), PROBE_MS);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * The `writes` check of `GET /health`: null while writes succeed; else why they fail and since
 * when. A write refused for want of room or of a writable store (http/errors.ts) marks the node;
 * from WRITE_PROBE_INTERVAL_MS later, each check tries a write of its own, and the first that
 * succeeds clears the mark. So a node a load balancer took out comes back once there is room,
 * though no client's write reaches it meanwhile.
 */
export async function writesCheck(ctx: ServiceContext): Promise<string | null> {
  const { node } = ctx;
  const refusal = node.writeRefusal;
  if (!refusal) return null;
  const now = ctx.clock.now();
  if (now.getTime() - refusal.triedAt.getTime() >= WRITE_PROBE_INTERVAL_MS) {
    // Marked as tried before it runs, so that checks arriving meanwhile do not probe too.
    node.writesRefused(refusal.why, now);
    try {
      await withinProbeTime(probeWrite(ctx, now));
      node.writesWork();
      return null;
    } catch (error) {
      const why = whyWritesFail(error);
      if (why) node.writesRefused(why, now);
    }
  }
  const current = node.writeRefusal ?? refusal;
  return `${current.why} since ${current.since.toISOString()}; writes are refused until they succeed again`;
}
