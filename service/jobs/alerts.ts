import { withAccount } from '../accounts/scope';
import { deliveryPass } from '../alerts/delivery-pass';
import { incidentPass } from '../alerts/incident-pass';
import { alertSenders, type SendAlert } from '../alerts/senders';
import type { ServiceContext } from '../context';
import { AlertRuleRepository } from '../repositories/alert-rules';
import { every, type Job } from './jobs';

/**
 * How often the rules are looked over and due messages sent: an alert is at most this late on
 * its rule (beside the gathering of alerts/incidents.ts), and a retry at most this late on its time.
 */
export const ALERTS_PASS_MS = 5_000;

/**
 * Offline alerts (docs/alerts.md): every ALERTS_PASS_MS, for each account with rules, opens and
 * resolves incidents, then sends the messages due. It runs once across the service's nodes (the
 * `once` jobs, under the lease): the deliveries are rows, so the node that leads next goes on
 * with the retries where this one stopped.
 */
export class AlertJob implements Job {
  readonly name = 'alerts';
  private readonly passes: Job;
  private abort = new AbortController();
  private send: SendAlert;

  constructor(private readonly ctx: ServiceContext) {
    this.send = alertSenders(ctx.config.smtp, this.abort.signal);
    this.passes = every(ctx, 'alerts', ALERTS_PASS_MS, () => this.pass());
  }

  start(): void {
    this.abort = new AbortController();
    this.send = alertSenders(this.ctx.config.smtp, this.abort.signal);
    this.passes.start();
  }

  /** A message under way is cut short (and tried again later): closing never waits for a receiver. */
  stop(): Promise<void> {
    this.abort.abort();
    return this.passes.stop();
  }

  private async pass(): Promise<void> {
    // Read outside any account: the accounts with rules, each then passed over as itself.
    for (const account of await new AlertRuleRepository(this.ctx.db).accountsWithRules()) {
      // One account's failure (a store error on its rows) leaves the others' alerts going.
      await withAccount(account, async () => {
        await incidentPass(this.ctx);
        await deliveryPass(this.ctx, this.send);
      }).catch((error: unknown) => this.ctx.log.error({ err: error }, `alerts of account ${account} failed`));
    }
  }
}
