import { AsyncLocalStorage } from 'node:async_hooks';
import { acrossAccounts, currentAccount, withAccount } from '../accounts/scope';
import { actingIn } from '../audit/acting-in';
import { currentActor, withActor, type Actor } from '../audit/actor';
import type { Queryable } from '../db/database';
import { inTurns } from '../db/in-turns';

/** Runs work outside the scopes of whichever request started it (its account, its bound device). */
const detached = AsyncLocalStorage.snapshot();

/** A write waiting for its batch, and the account it was asked for. */
export interface Waiting<Item, Result> {
  item: Item;
  account: string | undefined;
  /** Who asked, for the audit trail of writes that record one (audit/acting-in.ts). */
  actor: Actor | undefined;
  answer(result: Result): void;
  fail(error: unknown): void;
}

/**
 * What a batch's write answers for one write it refuses on its own, while it writes the others:
 * that write fails with `error`, and the batch is not tried again.
 */
export class Refused {
  constructor(readonly error: unknown) {}
}

export interface CoalescingOptions<Item> {
  /** Writes in one batch at most. */
  limit: number;
  /** Items of the same key never share a batch: the later waits for the next. */
  keyOf?: (item: Item) => string;
}

/**
 * Writes of one kind that arrive while a batch of them is under way, written together: each batch
 * is one transaction, so the store's cost per write (its round trips, its statements, its commit)
 * falls as the load rises, while a write arriving at a quiet node starts at once. `write` answers
 * a batch's writes in its order, once it has committed; they are answered a few per turn of the
 * event loop (db/in-turns.ts). A write it can tell is wrong before it writes (a medium that is
 * not there) it answers `Refused`, writing the rest. A batch that fails otherwise is tried again
 * write by write, so that one write the store refuses does not fail its neighbours.
 */
export class CoalescedWrites<Item, Result> {
  private waiting: Waiting<Item, Result>[] = [];
  private writing = false;

  constructor(
    private readonly write: (batch: readonly Waiting<Item, Result>[]) => Promise<(Result | Refused)[]>,
    private readonly options: CoalescingOptions<Item>,
  ) {}

  record(item: Item): Promise<Result> {
    return new Promise((answer, fail) => {
      this.waiting.push({ item, account: currentAccount(), actor: currentActor(), answer, fail });
      detached(() => this.pump());
    });
  }

  /** One batch at a time: the writes that arrive meanwhile make the next one. */
  private pump(): void {
    if (this.writing || this.waiting.length === 0) return;
    this.writing = true;
    void this.written(this.take()).finally(() => {
      this.writing = false;
      this.pump();
    });
  }

  private async written(batch: readonly Waiting<Item, Result>[]): Promise<void> {
    try {
      // A batch whose writes were all asked for by one actor is written as them (byActor).
      const actor = sharedActor(batch);
      const results = await (actor ? withActor(actor, () => this.write(batch)) : this.write(batch));
      inTurns(
        batch.map((one, index) => ({ one, result: results[index] as Result | Refused })),
        ({ one, result }) => (result instanceof Refused ? one.fail(result.error) : one.answer(result)),
      );
    } catch (error) {
      if (batch.length === 1) batch[0]?.fail(error);
      else await Promise.all(batch.map((one) => this.written([one])));
    }
  }

  /** The first writes waiting, up to the limit, one of each key; the others wait on. */
  private take(): Waiting<Item, Result>[] {
    const { limit, keyOf } = this.options;
    if (!keyOf) return this.waiting.splice(0, limit);
    const taken: Waiting<Item, Result>[] = [];
    const left: Waiting<Item, Result>[] = [];
    const keys = new Set<string>();
    for (const one of this.waiting) {
      const key = JSON.stringify([one.account, keyOf(one.item)]);
      if (taken.length < limit && !keys.has(key)) {
        keys.add(key);
        taken.push(one);
      } else left.push(one);
    }
    this.waiting = left;
    return taken;
  }
}

/** One coalescer per owner (a node's service context), made at its first write. */
export function coalescerPer<Owner extends object, Item, Result>(
  make: (owner: Owner) => CoalescedWrites<Item, Result>,
): (owner: Owner) => CoalescedWrites<Item, Result> {
  const made = new WeakMap<Owner, CoalescedWrites<Item, Result>>();
  return (owner) => {
    let coalescer = made.get(owner);
    if (!coalescer) made.set(owner, (coalescer = make(owner)));
    return coalescer;
  };
}

/**
 * Runs `work` for each account's writes of `batch`, as that account (the writes of no account,
 * the service's own upkeep, across every account), in the order of the accounts' ids: two batches
 * lock rows account by account in the same order, so they wait for each other, never deadlock.
 * The results of `work`, each group's in its order, in the order of `batch`.
 */
export async function byAccount<Item, Result, Answer>(
  batch: readonly Waiting<Item, Result>[],
  work: (group: readonly Waiting<Item, Result>[]) => Promise<Answer[]>,
): Promise<Answer[]> {
  const groups = new Map<string | undefined, Waiting<Item, Result>[]>();
  for (const one of batch) {
    const group = groups.get(one.account);
    if (group) group.push(one);
    else groups.set(one.account, [one]);
  }
  const answers = new Map<Waiting<Item, Result>, Answer>();
  const ordered = [...groups].sort(([a = ''], [b = '']) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [account, group] of ordered) {
    const run = () => work(group);
    const results = await (account === undefined ? acrossAccounts(run) : withAccount(account, run));
    group.forEach((one, index) => answers.set(one, results[index] as Answer));
  }
  return batch.map((one) => answers.get(one) as Answer);
}

/** The actor every write of `batch` was asked for by, or undefined (none, or several). */
function sharedActor(batch: readonly Waiting<unknown, unknown>[]): Actor | undefined {
  const first = batch[0]?.actor;
  const key = JSON.stringify(first);
  return first && batch.every((one) => JSON.stringify(one.actor) === key) ? first : undefined;
}

/**
 * Runs `work` for each actor's writes of `group` in turn, inside the batch's transaction `tx`,
 * as that actor (audit/acting-in.ts), so that the audit trail names who asked for each; the
 * results in the order of `group`. Only for writes the trail records (notifications): a batch of
 * metric writes or heartbeats records nothing and stays one statement. A batch of one actor's
 * writes is written as that actor already (`CoalescedWrites`), its transaction too: on PostgreSQL
 * its connection took the actor when it was checked out (audit/pg-actor.ts), mostly carrying it
 * from the batch before, so the actor is neither set nor put back around its writes, two round
 * trips fewer.
 */
export async function byActor<Item, Result, Answer>(
  tx: Queryable,
  group: readonly Waiting<Item, Result>[],
  work: (same: readonly Waiting<Item, Result>[]) => Promise<Answer[]>,
): Promise<Answer[]> {
  const byKey = new Map<string, Waiting<Item, Result>[]>();
  for (const one of group) {
    const key = one.actor ? JSON.stringify(one.actor) : '';
    const same = byKey.get(key);
    if (same) same.push(one);
    else byKey.set(key, [one]);
  }
  const answers = new Map<Waiting<Item, Result>, Answer>();
  const current = JSON.stringify(currentActor());
  for (const same of byKey.values()) {
    const actor = same[0]?.actor;
    const results = await (JSON.stringify(actor) === current
      ? work(same)
      : actingIn(tx, actor, () => work(same)));
    same.forEach((one, index) => answers.set(one, results[index] as Answer));
  }
  return group.map((one) => answers.get(one) as Answer);
}
