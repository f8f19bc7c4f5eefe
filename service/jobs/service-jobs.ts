import { sweepPresence } from '../actions/devices';
import type { JobsPort, ServiceContext } from '../context';
import { AlertJob, NodeWriteAlertJob } from './alerts';
import { CapFeedJob } from './cap-feeds';
import { DataSourceJob } from './data-sources';
import { commandsPass, COMMANDS_PASS_INTERVAL_MS } from './commands';
import { Jobs, every } from './jobs';
import { Leadership } from '../cluster/leases';
import { pairingExpiry } from './pairings';
import { pruneStore, RETENTION_INTERVAL_MS } from './retention';
import { ScriptJob } from './scripts';
import { sessionPruning } from './sessions';
import { WeatherJob } from './weather';

/** How often silent devices are swept: three times per grace period, at most once a second. */
export function sweepIntervalMs(offlineAfterSeconds: number): number {
  return Math.max(1, offlineAfterSeconds / 3) * 1000;
}

/** The jobs, started and stopped by the app, and the port actions and routes reach them by. */
export type ServiceJobs = Jobs & JobsPort & { readonly scripts: ScriptJob; readonly leadership: Leadership };

/**
 * Every background job of the service. What must happen once across the service's nodes runs on
 * the node that leads (cluster/leases.ts), in the order it starts; the scripts' runner, which
 * answers manual runs, runs on every node.
 */
export function serviceJobs(ctx: ServiceContext): ServiceJobs {
  const once = new Jobs();
  // A device is seen offline at most a third of its grace period late.
  once.add(
    every(ctx, 'presence sweep', sweepIntervalMs(ctx.config.offlineAfterSeconds), () => sweepPresence(ctx)),
  );
  once.add(every(ctx, 'pruning the store', RETENTION_INTERVAL_MS, () => pruneStore(ctx)));
  once.add(pairingExpiry(ctx));
  // A command is failed as expired at most a minute after its time.
  once.add(every(ctx, 'commands and plays', COMMANDS_PASS_INTERVAL_MS, () => commandsPass(ctx)));
  once.add(sessionPruning(ctx));
  once.add(new WeatherJob(ctx));
  once.add(new AlertJob(ctx));
  once.add(new CapFeedJob(ctx));
  once.add(new DataSourceJob(ctx));
  const scripts = new ScriptJob(ctx);
  once.add(scripts.schedules);
  const jobs = new Jobs();
  const leadership = jobs.add(new Leadership(ctx, once));
  jobs.add(scripts);
  // Each node watches its own writes (node.unwritable alerts), leading or not.
  const nodeAlerts = jobs.add(new NodeWriteAlertJob(ctx));
  const port: JobsPort = {
    scriptChanged: (id) => scripts.changed(id),
    runScript: (id, trigger) => scripts.run(id, trigger),
    scriptUsage: (account) => scripts.usage(account),
    isLeading: () => leadership.isLeading,
    nodeAlerts: (account) => nodeAlerts.listed(account),
  };
  return Object.assign(jobs, port, { scripts, leadership });
}
