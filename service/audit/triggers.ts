// The audit trail's triggers (docs/audit.md): every insert, update and delete of an audited table
// (audited-tables.ts) made while the work runs as an actor writes its entry in the same statement,
// so in the same transaction, whatever code made it. Made again by migrate.ts after any migration:
// SQLite's triggers list the table's columns, and a table a migration makes again loses them.
import { sql } from 'kysely';
import type { Queryable } from '../db/database';
import { AUDITED_TABLES, MASK, MASK_CHANGED, NEVER_RECORDED, type AuditedTable } from './audited-tables';
import { SQLITE_ACTOR_FUNCTION } from './sqlite-actor';

/** The PostgreSQL setting holding the actor's JSON ('' for none; pg-actor.ts sets it). */
export const PG_ACTOR_SETTING = 'wallboard.actor';
const PREFIX = 'wallboard_audit';
const NAME = /^[a-z_][a-z0-9_]*$/;

/** Drops the audit triggers and makes them for every audited table there is; none before migration 24. */
export async function rebuildAuditTriggers(tx: Queryable): Promise<void> {
  if (tx.kind === 'postgres') await rebuildPostgres(tx);
  else await rebuildSqlite(tx);
}

const name = (identifier: string): string => {
  if (!NAME.test(identifier)) throw new Error(`not a plain SQL name: ${identifier}`);
  return `"${identifier}"`;
};

const literal = (text: string): string => `'${text.replaceAll("'", "''")}'`;

interface SqliteColumn {
  name: string;
  type: string;
}

async function rebuildSqlite(tx: Queryable): Promise<void> {
  const { rows: triggers } = await sql<{ name: string }>`
    select name from sqlite_master where type = 'trigger' and name like ${`${PREFIX}_%`}`.execute(tx.kysely);
  for (const trigger of triggers) await sql.raw(`drop trigger ${name(trigger.name)}`).execute(tx.kysely);
  if (!(await sqliteHas(tx, 'audit_log'))) return;
  for (const [table, spec] of Object.entries(AUDITED_TABLES)) {
    const { rows: columns } = await sql<SqliteColumn>`
      select name, type from pragma_table_info(${table})`.execute(tx.kysely);
    if (columns.length === 0) continue;
    for (const statement of sqliteTriggers(table, spec, columns)) await sql.raw(statement).execute(tx.kysely);
  }
}

async function sqliteHas(tx: Queryable, table: string): Promise<boolean> {
  const { rows } = await sql`select 1 from sqlite_master where type = 'table' and name = ${table}`.execute(
    tx.kysely,
  );
  return rows.length > 0;
}

/** `row.column` as JSON takes it, secrets masked. */
function sqliteValue(row: 'OLD' | 'NEW', column: SqliteColumn, spec: AuditedTable, update: boolean): string {
  const value = `${row}.${name(column.name)}`;
  if (spec.secret?.includes(column.name)) {
    const other = row === 'NEW' ? 'OLD' : 'NEW';
    const changed =
      update && row === 'NEW'
        ? `WHEN ${value} IS NOT ${other}.${name(column.name)} THEN ${literal(MASK_CHANGED)} `
        : '';
    return `CASE WHEN ${value} IS NULL OR ${value} IN ('', '{}', '[]') THEN ${value} ${changed}ELSE ${literal(MASK)} END`;
  }
  // JSON holds no bytes: a binary value is recorded by its size.
  if (/blob/i.test(column.type)) {
    return `CASE WHEN ${value} IS NULL THEN NULL ELSE '(' || length(${value}) || ' bytes)' END`;
  }
  // JSON columns are text here, recorded as such: the reading parses them (repositories/audit-log.ts),
  // as a test of each in every trigger would triple what SQLite parses at each rebuild.
  return value;
}

function sqliteTriggers(table: string, spec: AuditedTable, all: readonly SqliteColumn[]): string[] {
  const recorded = all.filter(
    (column) => !spec.ignored?.includes(column.name) && !NEVER_RECORDED.includes(column.name),
  );
  const json = (row: 'OLD' | 'NEW', update: boolean) =>
    `json_object(${recorded.map((column) => `${literal(column.name)}, ${sqliteValue(row, column, spec, update)}`).join(', ')})`;
  const key = (row: 'OLD' | 'NEW') => spec.key.map((column) => `${row}.${name(column)}`).join(` || '/' || `);
  const entry = (action: string, row: 'OLD' | 'NEW', before: string, after: string) => `
    INSERT INTO audit_log
      (at, actor_kind, actor_id, actor_name, address, resource, resource_id, action, before, after, account_id)
    SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), a ->> '$.kind', a ->> '$.id', a ->> '$.name',
      a ->> '$.address', ${literal(table)}, ${key(row)}, ${literal(action)}, ${before}, ${after}, ${row}.account_id
    FROM (SELECT ${SQLITE_ACTOR_FUNCTION}() AS a);`;
  const acting = `${SQLITE_ACTOR_FUNCTION}() IS NOT NULL`;
  const changed = recorded.map((column) => `OLD.${name(column.name)} IS NOT NEW.${name(column.name)}`);
  const trigger = (action: string) => name(`${PREFIX}_${table}_${action}`);
  return [
    `CREATE TRIGGER ${trigger('create')} AFTER INSERT ON ${name(table)} WHEN ${acting} BEGIN
      ${entry('create', 'NEW', 'NULL', json('NEW', false))} END`,
    // `UPDATE OF`: a statement that sets none of the recorded columns (a heartbeat, a metric
    // write) does not even test for an actor.
    `CREATE TRIGGER ${trigger('update')} AFTER UPDATE OF ${recorded.map((column) => name(column.name)).join(', ')}
      ON ${name(table)} WHEN ${acting} AND (${changed.join(' OR ')}) BEGIN
      ${entry('update', 'NEW', json('OLD', false), json('NEW', true))} END`,
    `CREATE TRIGGER ${trigger('delete')} AFTER DELETE ON ${name(table)} WHEN ${acting} BEGIN
      ${entry('delete', 'OLD', json('OLD', false), 'NULL')} END`,
  ];
}

/**
 * One function for every table: the row as jsonb, less what is not recorded, secrets masked; the
 * key, ignored and secret columns come as the trigger's arguments, comma-separated.
 */
const PG_FUNCTION = `
CREATE OR REPLACE FUNCTION ${PREFIX}() RETURNS trigger LANGUAGE plpgsql AS $audit$
DECLARE
  actor jsonb := current_setting('${PG_ACTOR_SETTING}', true)::jsonb;
  key_columns text[] := string_to_array(TG_ARGV[0], ',');
  left_out text[] := string_to_array(TG_ARGV[1], ',') || ARRAY[${NEVER_RECORDED.map(literal).join(', ')}];
  secrets text[] := string_to_array(TG_ARGV[2], ',');
  old_row jsonb;
  new_row jsonb;
  before jsonb;
  after jsonb;
  secret text;
BEGIN
  IF TG_OP <> 'INSERT' THEN old_row := to_jsonb(OLD); before := old_row - left_out; END IF;
  IF TG_OP <> 'DELETE' THEN new_row := to_jsonb(NEW); after := new_row - left_out; END IF;
  IF TG_OP = 'UPDATE' AND before = after THEN RETURN NULL; END IF;
  FOREACH secret IN ARRAY secrets LOOP
    IF coalesce(before ->> secret, '') NOT IN ('', '{}', '[]') THEN
      before := jsonb_set(before, ARRAY[secret], to_jsonb(${literal(MASK)}::text));
    END IF;
    IF coalesce(after ->> secret, '') NOT IN ('', '{}', '[]') THEN
      after := jsonb_set(after, ARRAY[secret], to_jsonb(CASE
        WHEN TG_OP = 'UPDATE' AND old_row -> secret IS DISTINCT FROM new_row -> secret
        THEN ${literal(MASK_CHANGED)} ELSE ${literal(MASK)} END::text));
    END IF;
  END LOOP;
  INSERT INTO audit_log
    (at, actor_kind, actor_id, actor_name, address, resource, resource_id, action, before, after, account_id)
  VALUES (now(), actor ->> 'kind', actor ->> 'id', actor ->> 'name', actor ->> 'address', TG_TABLE_NAME,
    (SELECT string_agg(coalesce(new_row, old_row) ->> k, '/' ORDER BY n)
      FROM unnest(key_columns) WITH ORDINALITY AS keys(k, n)),
    CASE TG_OP WHEN 'INSERT' THEN 'create' WHEN 'UPDATE' THEN 'update' ELSE 'delete' END,
    before, after, coalesce(new_row, old_row) ->> 'account_id');
  RETURN NULL;
END
$audit$`;

async function rebuildPostgres(tx: Queryable): Promise<void> {
  const { rows: triggers } = await sql<{ table: string }>`
    select c.relname as table from pg_trigger t join pg_class c on c.oid = t.tgrelid
    where t.tgname = ${PREFIX} and c.relnamespace = current_schema()::regnamespace`.execute(tx.kysely);
  for (const { table } of triggers) {
    await sql.raw(`drop trigger ${PREFIX} on ${name(table)}`).execute(tx.kysely);
  }
  const { rows } = await sql<{
    table: string | null;
  }>`select to_regclass('audit_log')::text as table`.execute(tx.kysely);
  if (!rows[0]?.table) return;
  await sql.raw(PG_FUNCTION).execute(tx.kysely);
  const { rows: present } = await sql<{ table: string }>`
    select table_name as table from information_schema.tables
    where table_schema = current_schema() and table_name in (${sql.join(Object.keys(AUDITED_TABLES))})`.execute(
    tx.kysely,
  );
  for (const { table } of present) {
    const spec = AUDITED_TABLES[table] as AuditedTable;
    const args = [spec.key, spec.ignored ?? [], spec.secret ?? []].map((list) => literal(list.join(',')));
    // The test of a setting is all a write without an actor pays: the function is not called.
    await sql
      .raw(
        `CREATE TRIGGER ${PREFIX} AFTER INSERT OR UPDATE OR DELETE ON ${name(table)} FOR EACH ROW
        WHEN (current_setting('${PG_ACTOR_SETTING}', true) <> '') EXECUTE FUNCTION ${PREFIX}(${args.join(', ')})`,
      )
      .execute(tx.kysely);
  }
}
