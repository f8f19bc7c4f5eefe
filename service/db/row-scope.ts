import {
  AliasNode,
  JoinNode,
  OperationNodeTransformer,
  TableNode,
  WhereNode,
  type DeleteQueryNode,
  type OperationNode,
  type SelectQueryNode,
  type UpdateQueryNode,
} from 'kysely';

/** The table a from or join names, and the name its columns are referred by (its alias). */
function tableOf(node: OperationNode): { table: string; name: string } | null {
  if (TableNode.is(node)) {
    const table = node.table.identifier.name;
    return { table, name: table };
  }
  if (AliasNode.is(node) && TableNode.is(node.node)) {
    const alias = node.alias as { name?: string };
    const table = node.node.table.identifier.name;
    return { table, name: alias.name ?? table };
  }
  return null;
}

const andWhere = (where: WhereNode | undefined, condition: OperationNode): WhereNode =>
  where ? WhereNode.cloneWithOperation(where, 'And', condition) : WhereNode.create(condition);

/**
 * Rewrites every select, update and delete so that each table it reads keeps to the rows
 * `conditionFor` allows: in the WHERE for the tables it reads from, in the ON of a joined one (so
 * a left join stays a left join). What the rows must be is the subclass's: an account's
 * (accounts/account-plugin.ts), some screen groups' (visibility/group-plugin.ts).
 */
export abstract class RowScopeTransformer extends OperationNodeTransformer {
  /** The condition on `table`'s rows, referred to by `name`; null: every row. */
  protected abstract conditionFor(table: string, name: string): OperationNode | null;

  private conditionOf(node: OperationNode): OperationNode | null {
    const found = tableOf(node);
    return found && this.conditionFor(found.table, found.name);
  }

  private scoped<N extends { where?: WhereNode; joins?: readonly JoinNode[] }>(
    node: N,
    froms: readonly OperationNode[],
  ): N {
    const joins = node.joins?.map((join) => {
      const condition = join.on ? this.conditionOf(join.table) : null;
      return condition ? JoinNode.cloneWithOn(join, condition) : join;
    });
    let where = node.where;
    for (const from of froms) {
      const condition = this.conditionOf(from);
      if (condition) where = andWhere(where, condition);
    }
    return { ...node, joins, where };
  }

  protected override transformSelectQuery(node: SelectQueryNode): SelectQueryNode {
    const transformed = super.transformSelectQuery(node);
    return this.scoped(transformed, transformed.from?.froms ?? []);
  }

  protected override transformUpdateQuery(node: UpdateQueryNode): UpdateQueryNode {
    const transformed = super.transformUpdateQuery(node);
    const froms = [...(transformed.table ? [transformed.table] : []), ...(transformed.from?.froms ?? [])];
    return this.scoped(transformed, froms);
  }

  protected override transformDeleteQuery(node: DeleteQueryNode): DeleteQueryNode {
    const transformed = super.transformDeleteQuery(node);
    return this.scoped(transformed, [...transformed.from.froms, ...(transformed.using?.tables ?? [])]);
  }
}
