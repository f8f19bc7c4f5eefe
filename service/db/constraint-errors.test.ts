import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDefaultChannel } from '../bootstrap';
import { DeviceRepository } from '../repositories/devices';
import { openTestStore } from '../test-support';
import { isForeignKeyViolation, isUniqueViolation } from './constraint-errors';
import type { Database } from './database';

/** Both stores' refusals read as one: SQLite here, PostgreSQL under `npm run test:postgres`. */

let db: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ db, drop } = await openTestStore());
  await ensureDefaultChannel(db);
});
afterAll(() => drop());

async function refusal(write: () => Promise<unknown>): Promise<unknown> {
  try {
    await write();
  } catch (error) {
    return error;
  }
  throw new Error('the store took a write it should have refused');
}

describe('constraint errors', () => {
  it('tells a taken unique value, and a taken primary key, from the rest', async () => {
    const devices = new DeviceRepository(db);
    await devices.create({ tag: 'twin', name: '', description: '', playlist_id: null });
    const taken = await refusal(() =>
      devices.create({ tag: 'twin', name: '', description: '', playlist_id: null }),
    );
    expect([isUniqueViolation(taken), isForeignKeyViolation(taken)]).toEqual([true, false]);
    const key = await refusal(() =>
      db.kysely
        .insertInto('channels')
        .values({ id: 'ch_default', type: 'default', name: 'Again', tag: 'again' })
        .execute(),
    );
    expect(isUniqueViolation(key)).toBe(true);
  });

  it('tells a row that names a missing one', async () => {
    const missing = await refusal(() =>
      new DeviceRepository(db).create({ tag: 'lost', name: '', description: '', playlist_id: 'pl_gone' }),
    );
    expect([isForeignKeyViolation(missing), isUniqueViolation(missing)]).toEqual([true, false]);
  });

  it('says no for anything else', () => {
    for (const error of [new Error('x'), null, 'text', { code: 42 }, { errcode: '2067' }]) {
      expect([isUniqueViolation(error), isForeignKeyViolation(error)]).toEqual([false, false]);
    }
  });
});
