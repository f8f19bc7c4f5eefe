import type {
  AlertDestination,
  AlertDestinationCreate,
  AlertRule,
  AlertRuleCreate,
} from '../../src/shared/alert';
import type { ServiceContext } from '../context';
import { invalid } from '../domain/errors';
import { AlertDestinationRepository } from '../repositories/alert-destinations';
import { AlertRuleRepository } from '../repositories/alert-rules';
import { GroupRepository } from '../repositories/groups';

/**
 * The operators' side of alerts (docs/alerts.md): destinations and rules. What fires and is sent
 * is the alert job's (jobs/alerts.ts). Everything here is the current account's: another
 * account's destination or group is, as everywhere, not found. Each write tells the watching
 * consoles (`alerts`), in its transaction.
 */

export async function createAlertDestination(
  ctx: ServiceContext,
  input: AlertDestinationCreate,
): Promise<AlertDestination> {
  // Refused now rather than failing at the first alert, when no one is looking.
  if (input.kind === 'email' && !ctx.config.smtp) {
    throw invalid('e-mail alerts need the service to be started with --smtp-url', [
      { path: 'body.kind', message: 'email needs an SMTP server (--smtp-url); none is set' },
    ]);
  }
  return ctx.changes.transaction(async (tx, emit) => {
    const destination = await new AlertDestinationRepository(tx).create(input, ctx.clock.now());
    emit({ type: 'console', resource: 'alerts', id: destination.id });
    return destination;
  });
}

/** False when there is no such destination; the rules that sent to it no longer do. */
export async function deleteAlertDestination(ctx: ServiceContext, id: string): Promise<boolean> {
  return ctx.changes.transaction(async (tx, emit) => {
    if (!(await new AlertDestinationRepository(tx).delete(id))) return false;
    emit({ type: 'console', resource: 'alerts', id });
    return true;
  });
}

/** Its destinations, group or script must be the account's, checked in the write's transaction. */
export async function createAlertRule(ctx: ServiceContext, input: AlertRuleCreate): Promise<AlertRule> {
  return ctx.changes.transaction(async (tx, emit) => {
    const { target } = input;
    if ('group_id' in target && !(await new GroupRepository(tx).lock(target.group_id))) {
      throw invalid(`group ${target.group_id} does not exist`, [
        { path: 'body.target.group_id', message: 'must name an existing group' },
      ]);
    }
    // The rule goes with its script (a foreign key), as with its group.
    if ('script_id' in target && !(await new AlertRuleRepository(tx).lockScript(target.script_id))) {
      throw invalid(`script ${target.script_id} does not exist`, [
        { path: 'body.target.script_id', message: 'must name an existing script' },
      ]);
    }
    const found = await new AlertDestinationRepository(tx).existing(input.destination_ids);
    const missing = input.destination_ids.flatMap((id, i) => (found.has(id) ? [] : [{ id, i }]));
    if (missing.length > 0) {
      throw invalid(
        `alert destination ${missing.map(({ id }) => id).join(', ')} does not exist`,
        missing.map(({ i }) => ({
          path: `body.destination_ids.${i}`,
          message: 'must name an existing alert destination',
        })),
      );
    }
    const rule = await new AlertRuleRepository(tx).create(input, ctx.clock.now());
    emit({ type: 'console', resource: 'alerts', id: rule.id });
    return rule;
  });
}

/** False when there is no such rule; its incidents and their messages go with it. */
export async function deleteAlertRule(ctx: ServiceContext, id: string): Promise<boolean> {
  return ctx.changes.transaction(async (tx, emit) => {
    if (!(await new AlertRuleRepository(tx).delete(id))) return false;
    emit({ type: 'console', resource: 'alerts', id });
    return true;
  });
}
