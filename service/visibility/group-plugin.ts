import {
  sql,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type UnknownRow,
} from 'kysely';
import { RowScopeTransformer } from '../db/row-scope';
import { currentGroups } from './groups';

type Condition = (name: string, groups: readonly string[]) => OperationNode;

const inList = (groups: readonly string[]) => sql.join(groups.map((id) => sql`${id}`));
const screensOf = (groups: readonly string[]) =>
  sql`select d.id from devices d where d.group_id in (${inList(groups)})`;
const tagsOf = (groups: readonly string[]) =>
  sql`select d.tag from devices d where d.group_id in (${inList(groups)})`;
const byDevice: Condition = (name, groups) =>
  sql`${sql.ref(`${name}.device_id`)} in (${screensOf(groups)})`.toOperationNode();

/**
 * The rows a person kept to some screen groups sees, per table: the screens of those groups, the
 * groups themselves, and what hangs from a screen (its commands, plays, history, screenshot) or is
 * aimed at one (an override to a screen or group; one to every screen reaches theirs too). Group
 * ids are the store's own random ids, unique across accounts, so a screen found by its group is
 * the caller's account's.
 */
const CONDITIONS: Readonly<Record<string, Condition>> = {
  devices: (name, groups) => sql`${sql.ref(`${name}.group_id`)} in (${inList(groups)})`.toOperationNode(),
  groups: (name, groups) => sql`${sql.ref(`${name}.id`)} in (${inList(groups)})`.toOperationNode(),
  plays: byDevice,
  screenshots: byDevice,
  device_history: byDevice,
  commands: byDevice,
  overrides: (name, groups) =>
    sql`(${sql.ref(`${name}.target_group_id`)} in (${inList(groups)})
      or ${sql.ref(`${name}.target_device_tag`)} in (${tagsOf(groups)})
      or (${sql.ref(`${name}.target_group_id`)} is null and ${sql.ref(`${name}.target_device_tag`)} is null))`.toOperationNode(),
};

class GroupScopeTransformer extends RowScopeTransformer {
  constructor(private readonly groups: readonly string[]) {
    super();
  }

  protected override conditionFor(table: string, name: string): OperationNode | null {
    return CONDITIONS[table]?.(name, this.groups) ?? null;
  }
}

/**
 * Keeps every statement of a person kept to some screen groups (groups.ts) to those groups'
 * screens and what hangs from them, as accounts/account-plugin.ts keeps every statement to an
 * account: a screen of another group is not found (404) by any route, read or write, and lists
 * hold none of it. Content (boards, playlists, media…) stays readable; who may change it is
 * http/content-scope.ts's. Nothing is rewritten outside such work.
 */
export const groupScopePlugin: KyselyPlugin = {
  transformQuery(args: PluginTransformQueryArgs) {
    const groups = currentGroups();
    return groups?.length ? new GroupScopeTransformer(groups).transformNode(args.node) : args.node;
  },
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  },
};
