import type { ScriptRun } from '../../src/shared/script';
import type { ServiceContext } from '../context';
import type { ScriptTimeUse } from '../scripts/run-budget';
import { ScriptRunner } from '../scripts/runner';
import { ScriptScheduler } from '../scripts/scheduler';
import type { Job } from './jobs';

/**
 * The scripts' runner, on every node (the run route asks it for a manual run), and their
 * scheduler, `schedules`, which runs on the node that leads (jobs/service-jobs.ts) so that each
 * scheduled run happens once across the nodes. The script actions tell it of their writes; a
 * write on another node reaches the leader over the bus between nodes.
 */
export class ScriptJob implements Job {
  readonly name = 'scripts';
  readonly schedules: Job;
  private readonly runner: ScriptRunner;
  private readonly scheduler: ScriptScheduler;
  private stopped: Promise<void> | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly ctx: ServiceContext) {
    const onError = (error: unknown) => ctx.log.error({ err: error }, 'script run failed');
    this.runner = new ScriptRunner(ctx, { onError });
    const scheduler = new ScriptScheduler(ctx, this.runner, onError);
    this.scheduler = scheduler;
    this.schedules = {
      name: 'script schedules',
      start: () => scheduler.start(),
      stop: async () => scheduler.stop(),
    };
  }

  start(): void {
    // `from` names the node of the change, whose own scheduler followed already.
    this.unsubscribe = this.ctx.node.bus.subscribe('scripts.changed', ({ id, from }) => {
      if (from !== this.ctx.node.id) this.scheduler.changed(id).catch(() => undefined);
    });
  }

  /** The script was created, changed or deleted; resolves once this node's schedule follows. */
  changed(id: string): Promise<void> {
    this.ctx.node.bus.publish('scripts.changed', { id, from: this.ctx.node.id });
    return this.scheduler.changed(id);
  }

  /** Runs the script now; null when it does not exist. Throws RunnerStopped once stopping. */
  run(id: string, trigger: ScriptRun['trigger']): Promise<ScriptRun | null> {
    return this.runner.run(id, trigger);
  }

  /** The account's script time this hour, as this node counted it. */
  usage(account: string): ScriptTimeUse {
    return this.runner.usage(account);
  }

  /** Runs under way are aborted (a manual one answers 503 at once) and waited for. */
  stop(): Promise<void> {
    this.unsubscribe?.();
    this.scheduler.stop();
    this.stopped ??= this.runner.close();
    return this.stopped;
  }
}
