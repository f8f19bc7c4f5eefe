import { sql } from 'kysely';
import { columnTypes } from '../column-types';
import type { Queryable } from '../database';
import { remakeSqliteTable } from './accounts';

const ROLES = sql`role in ('admin', 'editor', 'publisher', 'viewer')`;

/**
 * Version 23: four roles where there were two (editors and publishers join admins and viewers),
 * the screen groups a user's role is kept to (`groups`, `[]` for the whole account), and the
 * identity a user of single sign-on is known by (`sso_subject`: `issuer subject`, unique in an
 * account). SQLite cannot change a check constraint, so its table is made again (with the foreign
 * keys off: sessions and sign-in codes name users).
 */
export async function rolesAndGroups(db: Queryable): Promise<void> {
  const t = columnTypes(db.kind);
  const { schema } = db.kysely;
  if (db.kind === 'postgres') {
    const { rows } = await sql<{ name: string }>`
      select con.conname as name from pg_constraint con join pg_class rel on rel.oid = con.conrelid
      where rel.relname = 'users' and con.contype = 'c'
        and pg_get_constraintdef(con.oid) like '%role%'`.execute(db.kysely);
    for (const { name } of rows)
      await sql`alter table users drop constraint ${sql.ref(name)}`.execute(db.kysely);
    await sql`alter table users add constraint users_role check (${ROLES})`.execute(db.kysely);
  } else {
    await remakeSqliteTable(db, 'users', (create) => {
      const pattern = /check \(role in \('admin', 'viewer'\)\)/i;
      if (!pattern.test(create)) throw new Error(`migration 23: "${create}" is not the table it should be`);
      return create.replace(pattern, `check (role in ('admin', 'editor', 'publisher', 'viewer'))`);
    });
  }
  await schema
    .alterTable('users')
    .addColumn('groups', t.json, (c) => c.notNull().defaultTo(t.jsonDefault('[]')))
    .execute();
  await schema.alterTable('users').addColumn('sso_subject', 'text').execute();
  await schema
    .createIndex('users_account_sso_subject')
    .on('users')
    .columns(['account_id', 'sso_subject'])
    .unique()
    .where(sql.ref('sso_subject'), 'is not', null)
    .execute();
}
