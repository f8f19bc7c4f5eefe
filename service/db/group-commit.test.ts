import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from './database';
import { openStore } from './open';

let db: Database;
let commits: number;
beforeEach(async () => {
  commits = 0;
  db = await openStore({
    log: (event) => {
      if (/^commit$/i.test(event.query.sql.trim())) commits += 1;
    },
  });
  commits = 0; // the migrations' own
});
afterEach(() => db.close());

const insertToken = (name: string) =>
  db.transaction(async (tx) => {
    await tx.kysely
      .insertInto('tokens')
      .values({ id: `tk_${name}`, scope: 'readonly', name, secret_hash: `hash-${name}` })
      .execute();
    return name;
  });

const names = async () =>
  (await db.kysely.selectFrom('tokens').select('name').orderBy('name').execute()).map((r) => r.name);

// The embedded store's own transactions (group-commit.ts); PostgreSQL commits each on its own.
describe('group commit on the embedded store', () => {
  it('commits writes that arrive together in fewer transactions, answering each', async () => {
    const all = Array.from({ length: 50 }, (_, i) => `w${String(i).padStart(2, '0')}`);
    expect(await Promise.all(all.map(insertToken))).toEqual(all);
    expect(await names()).toEqual(all);
    expect(commits).toBeGreaterThan(0);
    expect(commits).toBeLessThan(all.length);
  });

  it('rolls back a failing write alone, with its own error', async () => {
    const results = await Promise.allSettled([
      insertToken('a'),
      insertToken('a'), // the same id: refused by the primary key
      insertToken('b'),
      db.transaction(async () => {
        throw new Error('refused by its own check');
      }),
      insertToken('c'),
    ]);
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect((results[3] as PromiseRejectedResult).reason).toEqual(new Error('refused by its own check'));
    expect(await names()).toEqual(['a', 'b', 'c']);
  });

  it('answers a write at a quiet store on its own', async () => {
    expect(await insertToken('alone')).toBe('alone');
    expect(commits).toBe(1);
  });
});
