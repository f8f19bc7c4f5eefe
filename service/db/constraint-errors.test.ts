import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDefaultChannel } from '../accounts/accounts';
import { DomainError } from '../domain/errors';
import { DeviceRepository } from '../repositories/devices';
import { openTestStore } from '../test-support';
import { isForeignKeyViolation, isUniqueViolation } from './constraint-errors';
import type { Database } from './database';

/** Both stores' refusals read as one: SQLite here, PostgreSQL under `npm run test:postgres`. */

const device = (tag: string, playlistId: string | null = null) =>
  db.kysely
    .insertInto('devices')
    .values({ id: `dev_${tag}`, tag, name: '', description: '', playlist_id: playlistId })
    .execute();

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
    await device('twin');
    const taken = await refusal(() =>
      db.kysely
        .insertInto('devices')
        .values({ id: 'dev_other', tag: 'twin', name: '', description: '' })
        .execute(),
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
    const missing = await refusal(() => device('lost', 'pl_gone'));
    expect([isForeignKeyViolation(missing), isUniqueViolation(missing)]).toEqual([true, false]);
  });

  it('become domain errors in the repositories, worded for the request', async () => {
    const devices = new DeviceRepository(db);
    await devices.create({ tag: 'single', name: '', description: '', playlist_id: null });
    const taken = await refusal(() =>
      devices.create({ tag: 'single', name: '', description: '', playlist_id: null }),
    );
    expect(taken).toBeInstanceOf(DomainError);
    expect(taken).toMatchObject({
      kind: 'conflict',
      message: 'a device with tag "single" already exists',
      details: [{ path: 'body.tag', message: 'is already used by another device' }],
    });
    const missing = await refusal(() =>
      devices.create({ tag: 'orphan', name: '', description: '', playlist_id: 'pl_gone' }),
    );
    expect(missing).toMatchObject({
      kind: 'invalid',
      message: 'playlist pl_gone does not exist',
      details: [{ path: 'body.playlist_id', message: 'must name an existing playlist' }],
    });
  });

  it('says no for anything else', () => {
    for (const error of [new Error('x'), null, 'text', { code: 42 }, { errcode: '2067' }]) {
      expect([isUniqueViolation(error), isForeignKeyViolation(error)]).toEqual([false, false]);
    }
  });
});
