import type { Cancel, ServiceContext } from '../context';
import type { Queryable } from '../db/database';
import type { Job, Jobs } from '../jobs/jobs';

/**
 * How long a lease lasts, and how often its holder renews it and the others try for it. A node
 * that dies is replaced within LEASE_MS + RENEW_MS (20 s); one that cannot renew stops the work
 * at its next renewal, RENEW_MS after the last one, well before its lease can have run out.
 */
export const LEASE_MS = 15_000;
export const RENEW_MS = 5_000;

/** Named leases in the store: whoever holds one does its work until it runs out. */
export class LeaseRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Takes the lease, or renews it, for `holder` until `now + ms`: true when it is held, false
   * when another holds it and it has not run out. One statement, so two nodes trying at once
   * cannot both win.
   */
  async take(name: string, holder: string, now: Date, ms: number): Promise<boolean> {
    const expires = new Date(now.getTime() + ms).toISOString();
    const row = await this.db.kysely
      .insertInto('leases')
      .values({ name, holder, expires_at: expires })
      .onConflict((conflict) =>
        conflict
          .column('name')
          .doUpdateSet({ holder, expires_at: expires })
          .where((eb) =>
            eb.or([eb('leases.holder', '=', holder), eb('leases.expires_at', '<', now.toISOString())]),
          ),
      )
      .returning('holder')
      .executeTakeFirst();
    return row?.holder === holder;
  }

  /** Gives the lease up, if `holder` has it: the next node need not wait for it to run out. */
  async release(name: string, holder: string): Promise<void> {
    await this.db.kysely.deleteFrom('leases').where('name', '=', name).where('holder', '=', holder).execute();
  }

  async holder(name: string): Promise<string | null> {
    const row = await this.db.kysely
      .selectFrom('leases')
      .select('holder')
      .where('name', '=', name)
      .executeTakeFirst();
    return row?.holder ?? null;
  }
}

/**
 * The work that must happen once across the service's nodes runs on the node holding the
 * `jobs` lease, and on no other. One lease for all of it rather than one per job: a fleet's
 * upkeep is light, and one holder is easy to reason about (and to find: `GET /health` says
 * whether this node leads). The embedded store has one node, which takes it at once.
 */
export class Leadership implements Job {
  readonly name = 'leadership';
  private cancel: Cancel | null = null;
  private stopped = true;
  private leading = false;
  /** The renewal under way, awaited by stop. */
  private turn: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: ServiceContext,
    /** The work that runs while this node leads. */
    private readonly work: Jobs,
    private readonly lease = 'jobs',
  ) {}

  get isLeading(): boolean {
    return this.leading;
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.renew();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancel?.();
    this.cancel = null;
    await this.turn;
    if (!this.leading) return;
    this.leading = false;
    await this.work.stop();
    // Released at once: the next node takes over at its next try instead of after LEASE_MS.
    await new LeaseRepository(this.ctx.db)
      .release(this.lease, this.ctx.node.id)
      .catch((error: unknown) => this.ctx.log.error({ err: error }, 'could not release the jobs lease'));
  }

  private renew(): Promise<void> {
    this.turn = this.turn.then(async () => {
      if (this.stopped) return;
      const held = await new LeaseRepository(this.ctx.db)
        .take(this.lease, this.ctx.node.id, this.ctx.clock.now(), LEASE_MS)
        .catch((error: unknown) => {
          this.ctx.log.error({ err: error }, 'could not renew the jobs lease');
          return false;
        });
      if (this.stopped) return;
      try {
        if (held && !this.leading) {
          this.leading = true;
          await this.work.start();
        } else if (!held && this.leading) {
          this.leading = false;
          await this.work.stop();
        }
      } catch (error) {
        // Logged, and the next turn comes all the same: a node must not stop renewing for it.
        this.ctx.log.error({ err: error }, 'the jobs of the lease failed to start or stop');
      }
      if (!this.stopped) this.cancel = this.ctx.clock.setTimeout(() => this.renew(), RENEW_MS);
    });
    return this.turn;
  }
}
