import {
  BinaryOperationNode,
  ColumnNode,
  OperatorNode,
  PrimitiveValueListNode,
  ReferenceNode,
  TableNode,
  ValueListNode,
  ValueNode,
  ValuesNode,
  type InsertQueryNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type UnknownRow,
  type ValuesItemNode,
} from 'kysely';
import { RowScopeTransformer } from '../db/row-scope';
import { accountOrDefault, currentAccount } from './scope';

/**
 * The tables migration 11 gave an `account_id`, as they were then: that migration adds the column
 * to each of them, so a table made later (which carries the column itself) must not be listed here.
 */
export const MIGRATION_11_TABLES: readonly string[] = [
  'tokens',
  'users',
  'channels',
  'flows',
  'boards',
  'widgets',
  'notifications',
  'playlists',
  'devices',
  'groups',
  'scripts',
  'script_runs',
  'media',
  'events',
  'commands',
  'screenshots',
  'plays',
  'device_history',
];

/**
 * The tables whose rows belong to an account: every resource and what hangs from it. Not the
 * tables looked up before anyone's account is known, which name it themselves or belong to no
 * account: pairings (claimed by a code), sessions and sign-in codes (found by their secret, they
 * belong to a user), the media's content (shared by its hash), the leases.
 */
export const ACCOUNT_TABLES: ReadonlySet<string> = new Set([
  ...MIGRATION_11_TABLES,
  // Migration 15 (alerts), each made with its own account_id.
  'alert_destinations',
  'alert_rules',
  'alert_rule_destinations',
  'alerts',
  'alert_deliveries',
  // Migration 16 (emergency overrides).
  'overrides',
  // Migration 19 (CAP feeds).
  'cap_feeds',
  // Migration 22 (data sources).
  'data_sources',
  'data_bindings',
  'data_source_runs',
  // Migration 24 (the audit trail), 25 (scripts' secrets), 26 (an account's single sign-on).
  'audit_log',
  'script_secrets',
  'account_sso',
  // Migration 27 (player releases).
  'releases',
  'release_files',
  'rollouts',
  'release_pins',
  'update_reports',
  // Migration 28 (sync groups and walls).
  'sync_groups',
  'sync_group_members',
]);

const ACCOUNT_COLUMN = 'account_id';

function ownedBy(name: string, accountId: string): OperationNode {
  return BinaryOperationNode.create(
    ReferenceNode.create(ColumnNode.create(ACCOUNT_COLUMN), TableNode.create(name)),
    OperatorNode.create('='),
    ValueNode.create(accountId),
  );
}

/** A row of values with the account's id at its end. */
function withAccountValue(row: ValuesItemNode, accountId: string): ValuesItemNode {
  if (PrimitiveValueListNode.is(row)) return PrimitiveValueListNode.create([...row.values, accountId]);
  if (ValueListNode.is(row)) return ValueListNode.create([...row.values, ValueNode.create(accountId)]);
  return row;
}

class AccountScopeTransformer extends RowScopeTransformer {
  constructor(
    /** The account whose rows are seen; undefined: every account's (upkeep). */
    private readonly accountId: string | undefined,
    /** The account new rows go to. */
    private readonly writeAccount: string,
  ) {
    super();
  }

  protected override conditionFor(table: string, name: string): OperationNode | null {
    return this.accountId !== undefined && ACCOUNT_TABLES.has(table) ? ownedBy(name, this.accountId) : null;
  }

  /** New rows of an account table are the account's, unless the insert names one itself. */
  protected override transformInsertQuery(node: InsertQueryNode): InsertQueryNode {
    const transformed = super.transformInsertQuery(node);
    const table = transformed.into?.table.identifier.name;
    const { columns, values } = transformed;
    if (!table || !ACCOUNT_TABLES.has(table) || !columns || !values || !ValuesNode.is(values)) {
      return transformed;
    }
    if (columns.some((column) => column.column.name === ACCOUNT_COLUMN)) return transformed;
    return {
      ...transformed,
      columns: [...columns, ColumnNode.create(ACCOUNT_COLUMN)],
      values: ValuesNode.create(values.values.map((row) => withAccountValue(row, this.writeAccount))),
    };
  }
}

/**
 * Keeps every statement to the current account (scope.ts): reads, updates and deletes of an
 * account table see its rows only, and inserts write its id. So a route cannot reach another
 * account's rows whatever its query, and an id of another account is simply not found (404).
 * Raw SQL (sql``) is not rewritten: the few statements written so say their account themselves.
 */
export const accountScopePlugin: KyselyPlugin = {
  transformQuery(args: PluginTransformQueryArgs) {
    return new AccountScopeTransformer(currentAccount(), accountOrDefault()).transformNode(args.node);
  },
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  },
};
