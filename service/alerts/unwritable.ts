import type { Alert, AlertDelivery, AlertNode } from '../../src/shared/alert';
import { acrossAccounts, withAccount } from '../accounts/scope';
import { writesCheck } from '../cluster/write-probe';
import type { ServiceContext } from '../context';
import { whyWritesFail } from '../db/constraint-errors';
import { newId } from '../ids';
import { AlertDeliveryRepository, type RestoredDelivery } from '../repositories/alert-deliveries';
import { AlertDestinationRepository } from '../repositories/alert-destinations';
import { AlertRuleRepository, type NodeRule } from '../repositories/alert-rules';
import { AlertRepository } from '../repositories/alerts';
import { attempt } from './delivery-pass';
import type { AlertMessage } from './messages';
import type { SendAlert } from './senders';

/** An incident about this node, held in its memory: the store it is about takes no writes. */
interface HeldIncident {
  id: string;
  account: string;
  ruleId: string;
  startedAt: Date;
  node: AlertNode;
  /** Its alert to each destination, as it goes. */
  deliveries: RestoredDelivery[];
}

/**
 * `node.unwritable` (docs/alerts.md): this node cannot write its store (a full disk, a read-only
 * store). An incident row cannot be written then, nor can its deliveries, so the incident lives in
 * this node's memory while it lasts, and every node watches itself (the alert job of the other
 * events runs on the leading node only, and a node that cannot write loses the lease):
 *
 * - The signal is the node's own record of refused writes (`ctx.node.writeRefusal`): a write that
 *   failed because no write can succeed (http/errors.ts, the alert job) marks it with the time;
 *   the write probe of cluster/write-probe.ts, which each pass runs while it is marked, clears it
 *   at the first write that succeeds.
 * - Once writes have been refused for a rule's `after_seconds`, the incident opens here and its
 *   alert goes to the rule's destinations straight from memory (rules and destinations can still
 *   be read), retried as stored messages are, once per incident.
 * - Once writes succeed again, the incident is written to the history, resolved, with how its
 *   alert went (under the ids its receivers saw), and its recovery is queued in the store like any
 *   other; the delivery pass sends it. Should that write fail, the incident stays open here.
 *
 * What it cannot do: a node that restarts while its writes fail forgets the incident (its alert
 * is then never followed by a recovery, nor written to the history), and alerts again once its
 * writes have been refused for `after_seconds` anew. Nodes cannot gather into one message, since
 * they would have to write to agree: on a shared PostgreSQL that takes no writes, each node that
 * meets the refusal alerts for itself.
 */
export class NodeWriteAlerts {
  /** The open incident of each rule, by rule id. */
  private readonly held = new Map<string, HeldIncident>();
  /** When each rule's last incident here was resolved (ms): the rule against flapping. */
  private readonly resolvedAt = new Map<string, number>();

  constructor(
    private readonly ctx: ServiceContext,
    private readonly send: () => SendAlert,
  ) {}

  /** This node's open incidents of the account, as GET /alerts lists them (the store has them not). */
  listed(account: string): Alert[] {
    return [...this.held.values()]
      .filter((incident) => incident.account === account)
      .map((incident) => ({
        id: incident.id,
        event: 'node.unwritable' as const,
        status: 'firing' as const,
        devices: [],
        screens: [],
        node: incident.node,
        started_at: incident.startedAt.toISOString(),
        rule_id: incident.ruleId,
        deliveries: incident.deliveries.map(shownDelivery),
      }));
  }

  /** One pass: nothing at all, not even a read, while writes succeed and nothing is held. */
  async pass(): Promise<void> {
    const { node } = this.ctx;
    if (!node.writeRefusal && this.held.size === 0) return;
    if (node.writeRefusal) await writesCheck(this.ctx);
    const refusal = node.writeRefusal;
    if (refusal) await this.open(refusal.why, refusal.since);
    else await this.record();
    await this.deliver();
  }

  /** Opens an incident for each rule whose time has come, and lets go of those of deleted rules. */
  private async open(why: string, since: Date): Promise<void> {
    let rules: NodeRule[];
    try {
      rules = await acrossAccounts(() => new AlertRuleRepository(this.ctx.db).nodeRules());
    } catch (error) {
      this.ctx.log.error({ err: error }, 'the rules of node.unwritable could not be read');
      return;
    }
    const now = this.ctx.clock.now();
    for (const ruleId of this.held.keys()) {
      if (!rules.some((rule) => rule.id === ruleId)) this.held.delete(ruleId);
    }
    for (const rule of rules) {
      if (this.held.has(rule.id) || rule.destinationIds.length === 0) continue;
      const afterMs = rule.afterSeconds * 1000;
      // As screens that flap: refused again soon after a recovery, it waits twice as long.
      const last = this.resolvedAt.get(rule.id);
      const flapping = last !== undefined && since.getTime() - last < afterMs;
      if (now.getTime() - since.getTime() < (flapping ? 2 * afterMs : afterMs)) continue;
      const incident: HeldIncident = {
        id: newId('alrt'),
        account: rule.account,
        ruleId: rule.id,
        startedAt: now,
        node: { id: this.ctx.node.id, reason: why, since: since.toISOString() },
        deliveries: rule.destinationIds.map((destinationId) => ({
          id: newId('adlv'),
          destinationId,
          phase: 'firing' as const,
          status: 'pending' as const,
          attempts: 0,
          nextAttemptAt: now,
          deliveredAt: null,
          lastError: null,
        })),
      };
      this.held.set(rule.id, incident);
      this.ctx.log.error(
        { err: new Error(why) },
        `alert ${incident.id}: this node has not been able to write its store since ${since.toISOString()}`,
      );
      await withAccount(rule.account, () => this.tell(incident.id));
    }
  }

  /** Writes succeed again: each incident goes to the history, resolved, and its recovery is queued. */
  private async record(): Promise<void> {
    for (const incident of [...this.held.values()]) {
      const now = this.ctx.clock.now();
      try {
        await withAccount(incident.account, () =>
          this.ctx.changes.transaction(async (tx, emit) => {
            // A rule deleted meanwhile takes its incidents with it: there is nothing to record.
            if (!(await new AlertRuleRepository(tx).exists(incident.ruleId))) return;
            const ids = incident.deliveries.map((delivery) => delivery.destinationId);
            const existing = await new AlertDestinationRepository(tx).existing(ids);
            const kept = incident.deliveries.filter((delivery) => existing.has(delivery.destinationId));
            const deliveries = new AlertDeliveryRepository(tx);
            await new AlertRepository(tx).recordResolvedNode(incident, now);
            await deliveries.restore(incident.id, kept);
            await deliveries.add(
              incident.id,
              kept.map((delivery) => delivery.destinationId),
              'resolved',
              now,
            );
            emit({ type: 'console', resource: 'alerts', id: incident.id });
          }),
        );
        this.held.delete(incident.ruleId);
        this.resolvedAt.set(incident.ruleId, now.getTime());
      } catch (error) {
        const why = whyWritesFail(error);
        if (why) this.ctx.node.writesRefused(why, now);
        this.ctx.log.error({ err: error }, `alert ${incident.id} could not be written to the history yet`);
      }
    }
  }

  /** Sends the held alerts that are due, each destination read as its account. */
  private async deliver(): Promise<void> {
    const send = this.send();
    await Promise.all(
      [...this.held.values()].map(async (incident) => {
        const now = this.ctx.clock.now();
        const due = incident.deliveries.filter(
          (delivery) =>
            delivery.status === 'pending' && delivery.nextAttemptAt !== null && delivery.nextAttemptAt <= now,
        );
        if (due.length === 0) return;
        const targets = await withAccount(incident.account, () =>
          new AlertDestinationRepository(this.ctx.db).targets(due.map((delivery) => delivery.destinationId)),
        ).catch((error: unknown) => {
          this.ctx.log.error({ err: error }, `the destinations of alert ${incident.id} could not be read`);
          return null;
        });
        if (!targets) return;
        const message = messageOf(incident);
        await Promise.all(
          due.map(async (delivery) => {
            const target = targets.get(delivery.destinationId);
            // Deleted meanwhile: nothing to send it to, as a stored delivery goes with its destination.
            if (!target) {
              incident.deliveries = incident.deliveries.filter((d) => d !== delivery);
              return;
            }
            const outcome = await attempt(this.ctx, send, delivery, target, message);
            delivery.attempts += 1;
            if (outcome.kind === 'delivered') {
              Object.assign(delivery, { status: 'delivered', deliveredAt: outcome.at, nextAttemptAt: null });
            } else if (outcome.kind === 'retry') {
              Object.assign(delivery, { nextAttemptAt: outcome.retryAt, lastError: outcome.error });
            } else {
              Object.assign(delivery, { status: 'failed', nextAttemptAt: null, lastError: outcome.error });
              this.ctx.log.error(
                { err: new Error(outcome.error) },
                `alert ${incident.id} could not be delivered to destination ${target.id}`,
              );
            }
          }),
        );
        await withAccount(incident.account, () => this.tell(incident.id));
      }),
    );
  }

  /** The account's consoles hear of it; nothing is written. */
  private tell(id: string): Promise<void> {
    return this.ctx.changes.publish({ type: 'console', resource: 'alerts', id });
  }
}

function messageOf(incident: HeldIncident): AlertMessage {
  return {
    alert: {
      id: incident.id,
      event: 'node.unwritable',
      status: 'firing',
      devices: [],
      started_at: incident.startedAt.toISOString(),
    },
    screens: [],
    node: incident.node,
  };
}

function shownDelivery(delivery: RestoredDelivery): AlertDelivery {
  return {
    destination_id: delivery.destinationId,
    phase: delivery.phase,
    status: delivery.status,
    attempts: delivery.attempts,
    ...(delivery.status === 'pending' && delivery.nextAttemptAt
      ? { next_attempt_at: delivery.nextAttemptAt.toISOString() }
      : {}),
    ...(delivery.deliveredAt ? { delivered_at: delivery.deliveredAt.toISOString() } : {}),
    ...(delivery.lastError ? { last_error: delivery.lastError } : {}),
  };
}
