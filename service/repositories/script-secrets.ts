import { SCRIPT_SECRETS_MAX, type ScriptSecret } from '../../src/shared/script-secret';
import { transact, type Queryable } from '../db/database';
import { lockRows } from '../db/dialect';
import { conflict } from '../domain/errors';
import { newId } from '../ids';
import { openSecret, sealSecret } from '../domain/secret-box';
import { isoRequired } from './rows';

const SHOWN = ['name', 'created_at', 'updated_at'] as const;

function shown(row: { name: string; created_at: string | Date; updated_at: string | Date }): ScriptSecret {
  return { name: row.name, created_at: isoRequired(row.created_at), updated_at: isoRequired(row.updated_at) };
}

/**
 * Scripts' named secrets (migration 25). Their values leave this repository for one place only:
 * `values`, read when a run starts; every other answer holds the names and times.
 */
export class ScriptSecretRepository {
  constructor(
    private readonly db: Queryable,
    /** What values are sealed with at rest (domain/secret-box.ts). */
    private readonly key: Buffer | null,
  ) {}

  /** The script's secrets by name, without their values. */
  async list(scriptId: string): Promise<ScriptSecret[]> {
    const rows = await this.db.kysely
      .selectFrom('script_secrets')
      .select(SHOWN)
      .where('script_id', '=', scriptId)
      .orderBy('name')
      .execute();
    return rows.map(shown);
  }

  /** Name → value, for the run about to start. */
  async values(scriptId: string): Promise<Record<string, string>> {
    const rows = await this.db.kysely
      .selectFrom('script_secrets')
      .select(['name', 'value'])
      .where('script_id', '=', scriptId)
      .execute();
    return Object.fromEntries(rows.map((row) => [row.name, openSecret(this.key, row.value)]));
  }

  /**
   * Sets the secret, creating it or replacing its value; null when the script does not exist. A
   * new name past `SCRIPT_SECRETS_MAX` is refused (409), nothing written. The script's row is
   * locked first (PostgreSQL; SQLite has one writer), so two new names at once are counted one
   * after the other.
   */
  async put(
    scriptId: string,
    name: string,
    plain: string,
    at: Date,
  ): Promise<{ secret: ScriptSecret; created: boolean } | null> {
    return transact(this.db, async (tx) => {
      const script = await lockRows(
        tx.kind,
        tx.kysely.selectFrom('scripts').select('id').where('id', '=', scriptId),
      ).executeTakeFirst();
      if (!script) return null;
      const now = at.toISOString();
      const value = sealSecret(this.key, plain);
      const replaced = await tx.kysely
        .updateTable('script_secrets')
        .set({ value, updated_at: now })
        .where('script_id', '=', scriptId)
        .where('name', '=', name)
        .returning(SHOWN)
        .executeTakeFirst();
      if (replaced) return { secret: shown(replaced), created: false };
      const count = await tx.kysely
        .selectFrom('script_secrets')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('script_id', '=', scriptId)
        .executeTakeFirstOrThrow();
      if (Number(count.count) >= SCRIPT_SECRETS_MAX) {
        const message = `a script may have at most ${SCRIPT_SECRETS_MAX} secrets: delete one first, or replace one of them`;
        throw conflict(`script ${scriptId} has ${SCRIPT_SECRETS_MAX} secrets already`, [
          { path: 'params.name', message },
        ]);
      }
      const created = await tx.kysely
        .insertInto('script_secrets')
        .values({ id: newId('ssec'), script_id: scriptId, name, value, created_at: now, updated_at: now })
        .returning(SHOWN)
        .executeTakeFirstOrThrow();
      return { secret: shown(created), created: true };
    });
  }

  /** True when the secret existed. */
  async delete(scriptId: string, name: string): Promise<boolean> {
    const row = await this.db.kysely
      .deleteFrom('script_secrets')
      .where('script_id', '=', scriptId)
      .where('name', '=', name)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }
}
