import type { Alert } from '../../src/shared/alert';
import { withAccount } from '../accounts/scope';
import { deliveryPass } from '../alerts/delivery-pass';
import { incidentPass } from '../alerts/incident-pass';
import { alertSenders, type SendAlert } from '../alerts/senders';
import { NodeWriteAlerts } from '../alerts/unwritable';
import type { ServiceContext } from '../context';
import { whyWritesFail } from '../db/constraint-errors';
import { AlertRuleRepository } from '../repositories/alert-rules';
import { every, type Job } from './jobs';

/**
 * How often the rules are looked over and due messages sent: an alert is at most this late on
 * its rule (beside the gathering of alerts/incidents.ts), and a retry at most this late on its time.
 */
export const ALERTS_PASS_MS = 5_000;

/** Senders that a stop cuts short, made anew at each start. */
class Senders {
  private abort = new AbortController();
  send: SendAlert;

  constructor(private readonly ctx: ServiceContext) {
    this.send = alertSenders(ctx.config.smtp, this.abort.signal);
  }

  renew(): void {
    this.abort = new AbortController();
    this.send = alertSenders(this.ctx.config.smtp, this.abort.signal);
  }

  /** A message under way is cut short (and tried again later): closing never waits for a receiver. */
  cut(): void {
    this.abort.abort();
  }
}

/**
 * Alerts (docs/alerts.md): every ALERTS_PASS_MS, for each account with rules, opens and resolves
 * incidents, then sends the messages due. It runs once across the service's nodes (the `once`
 * jobs, under the lease): the deliveries are rows, so the node that leads next goes on with the
 * retries where this one stopped. `node.unwritable` is NodeWriteAlertJob's, on every node.
 */
export class AlertJob implements Job {
  readonly name = 'alerts';
  private readonly passes: Job;
  private readonly senders: Senders;

  constructor(private readonly ctx: ServiceContext) {
    this.senders = new Senders(ctx);
    this.passes = every(ctx, 'alerts', ALERTS_PASS_MS, () => this.pass());
  }

  start(): void {
    this.senders.renew();
    this.passes.start();
  }

  stop(): Promise<void> {
    this.senders.cut();
    return this.passes.stop();
  }

  private async pass(): Promise<void> {
    // Read outside any account: the accounts with rules, each then passed over as itself.
    for (const account of await new AlertRuleRepository(this.ctx.db).accountsWithRules()) {
      // One account's failure (a store error on its rows) leaves the others' alerts going.
      await withAccount(account, async () => {
        await incidentPass(this.ctx);
        await deliveryPass(this.ctx, this.senders.send);
      }).catch((error: unknown) => {
        // A write refused for want of room says so to node.unwritable, as a request's does.
        const why = whyWritesFail(error);
        if (why) this.ctx.node.writesRefused(why, this.ctx.clock.now());
        this.ctx.log.error({ err: error }, `alerts of account ${account} failed`);
      });
    }
  }
}

/**
 * `node.unwritable` (alerts/unwritable.ts): on every node, not under the lease, since each node
 * watches its own writes, and a node whose store takes no writes cannot hold the lease anyway.
 */
export class NodeWriteAlertJob implements Job {
  readonly name = 'node write alerts';
  private readonly passes: Job;
  private readonly senders: Senders;
  private readonly alerts: NodeWriteAlerts;

  constructor(ctx: ServiceContext) {
    this.senders = new Senders(ctx);
    this.alerts = new NodeWriteAlerts(ctx, () => this.senders.send);
    this.passes = every(ctx, 'node write alerts', ALERTS_PASS_MS, () => this.alerts.pass());
  }

  /** This node's open incidents of the account, which only its memory holds. */
  listed(account: string): Alert[] {
    return this.alerts.listed(account);
  }

  start(): void {
    this.senders.renew();
    this.passes.start();
  }

  stop(): Promise<void> {
    this.senders.cut();
    return this.passes.stop();
  }
}
