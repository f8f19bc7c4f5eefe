import type { AlertEvent, AlertRule, AlertRuleCreate, AlertTarget } from '../../src/shared/alert';
import type { Queryable } from '../db/database';
import { lockRows } from '../db/dialect';
import { newId } from '../ids';
import { isoRequired } from './rows';

const COLUMNS = [
  'id',
  'event',
  'after_seconds',
  'failures',
  'target_group_id',
  'target_device_tag',
  'target_script_id',
  'created_at',
] as const;

interface RuleRow {
  id: string;
  event: AlertEvent;
  after_seconds: number | null;
  failures: number | null;
  target_group_id: string | null;
  target_device_tag: string | null;
  target_script_id: string | null;
  created_at: Date | string;
}

function targetOf(row: RuleRow): AlertTarget {
  if (row.target_group_id !== null) return { group_id: row.target_group_id };
  if (row.target_device_tag !== null) return { device_tag: row.target_device_tag };
  if (row.target_script_id !== null) return { script_id: row.target_script_id };
  return { all: true };
}

/** A rule as answered: `after_seconds` or `failures`, whichever its event counts, in the order it always had. */
function fromRow(row: RuleRow, destinations: string[]): AlertRule {
  return {
    id: row.id,
    event: row.event,
    ...(row.after_seconds === null ? {} : { after_seconds: Number(row.after_seconds) }),
    ...(row.failures === null ? {} : { failures: Number(row.failures) }),
    target: targetOf(row),
    destination_ids: destinations,
    created_at: isoRequired(row.created_at),
  };
}

/** A `node.unwritable` rule with its account, as every node reads them (alerts/unwritable.ts). */
export interface NodeRule {
  id: string;
  account: string;
  afterSeconds: number;
  destinationIds: string[];
}

/** When an account's alerts fire (migrations 15 and 18), oldest first, each with its destinations. */
export class AlertRuleRepository {
  constructor(private readonly db: Queryable) {}

  async list(): Promise<AlertRule[]> {
    const rows = await this.db.kysely
      .selectFrom('alert_rules')
      .select(COLUMNS)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const destinations = await this.destinationsOf(rows.map((row) => row.id));
    return rows.map((row) => fromRow(row, destinations.get(row.id) ?? []));
  }

  /** Its destinations are written beside it, in the caller's transaction. */
  async create(input: AlertRuleCreate, at: Date): Promise<AlertRule> {
    const { target } = input;
    const row = await this.db.kysely
      .insertInto('alert_rules')
      .values({
        id: newId('arul'),
        event: input.event,
        after_seconds: 'after_seconds' in input ? input.after_seconds : null,
        failures: 'failures' in input ? input.failures : null,
        target_group_id: 'group_id' in target ? target.group_id : null,
        target_device_tag: 'device_tag' in target ? target.device_tag : null,
        target_script_id: 'script_id' in target ? target.script_id : null,
        created_at: at.toISOString(),
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    await this.db.kysely
      .insertInto('alert_rule_destinations')
      .values(input.destination_ids.map((id) => ({ rule_id: row.id, destination_id: id })))
      .execute();
    return fromRow(row, [...input.destination_ids].sort());
  }

  /** Its incidents and their deliveries go with it. */
  async delete(id: string): Promise<boolean> {
    const result = await this.db.kysely.deleteFrom('alert_rules').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /**
   * Whether the script a rule would watch exists, its row locked until the transaction ends on
   * PostgreSQL (SQLite has one writer): a rule is not made for a script a delete is taking away.
   */
  async lockScript(id: string): Promise<boolean> {
    const { kind, kysely } = this.db;
    const row = await lockRows(
      kind,
      kysely.selectFrom('scripts').select('id').where('id', '=', id),
    ).executeTakeFirst();
    return row !== undefined;
  }

  /** Whether the rule is there still. */
  async exists(id: string): Promise<boolean> {
    const row = await this.db.kysely
      .selectFrom('alert_rules')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Rule id to its destinations' ids, sorted. */
  async destinationsOf(ruleIds: readonly string[]): Promise<Map<string, string[]>> {
    const found = new Map<string, string[]>();
    if (ruleIds.length === 0) return found;
    const rows = await this.db.kysely
      .selectFrom('alert_rule_destinations')
      .select(['rule_id', 'destination_id'])
      .where('rule_id', 'in', ruleIds)
      .orderBy('destination_id')
      .execute();
    for (const row of rows) found.set(row.rule_id, [...(found.get(row.rule_id) ?? []), row.destination_id]);
    return found;
  }

  /**
   * The accounts with rules. Read outside any account (the alert job's own upkeep): the plugin
   * leaves the query unscoped there, and each account's pass then runs as that account.
   */
  async accountsWithRules(): Promise<string[]> {
    const rows = await this.db.kysely
      .selectFrom('alert_rules')
      .select('account_id')
      .distinct()
      .orderBy('account_id')
      .execute();
    return rows.map((row) => row.account_id);
  }

  /**
   * Every account's `node.unwritable` rules with their destinations: reads only, which a node
   * whose store takes no writes can still do. Read outside any account, as accountsWithRules.
   */
  async nodeRules(): Promise<NodeRule[]> {
    const rows = await this.db.kysely
      .selectFrom('alert_rules')
      .select(['id', 'account_id', 'after_seconds'])
      .where('event', '=', 'node.unwritable')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const destinations = await this.destinationsOf(rows.map((row) => row.id));
    return rows.map((row) => ({
      id: row.id,
      account: row.account_id,
      afterSeconds: Number(row.after_seconds),
      destinationIds: destinations.get(row.id) ?? [],
    }));
  }
}
