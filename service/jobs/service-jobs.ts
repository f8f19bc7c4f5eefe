import { sweepPresence } from '../actions/devices';
import type { ServiceContext } from '../context';
import { commandsPass, COMMANDS_PASS_INTERVAL_MS } from './commands';
import { Jobs, every } from './jobs';
import { pairingExpiry } from './pairings';
import { pruneStore, RETENTION_INTERVAL_MS } from './retention';
import { ScriptJob } from './scripts';
import { sessionPruning } from './sessions';
import { WeatherJob } from './weather';

/** How often silent devices are swept: three times per grace period, at most once a second. */
export function sweepIntervalMs(offlineAfterSeconds: number): number {
  return Math.max(1, offlineAfterSeconds / 3) * 1000;
}

/** The jobs others talk to have a name here. */
export type ServiceJobs = Jobs & { readonly scripts: ScriptJob };

/** Every background job of the service, in the order they start. */
export function serviceJobs(ctx: ServiceContext): ServiceJobs {
  const jobs = new Jobs();
  // A device is seen offline at most a third of its grace period late.
  jobs.add(
    every(ctx, 'presence sweep', sweepIntervalMs(ctx.config.offlineAfterSeconds), () => sweepPresence(ctx)),
  );
  jobs.add(every(ctx, 'pruning the store', RETENTION_INTERVAL_MS, () => pruneStore(ctx)));
  jobs.add(pairingExpiry(ctx));
  // A command is failed as expired at most a minute after its time.
  jobs.add(every(ctx, 'commands and plays', COMMANDS_PASS_INTERVAL_MS, () => commandsPass(ctx)));
  jobs.add(sessionPruning(ctx));
  jobs.add(new WeatherJob(ctx));
  return Object.assign(jobs, { scripts: jobs.add(new ScriptJob(ctx)) });
}
