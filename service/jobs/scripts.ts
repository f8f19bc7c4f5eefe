import type { ScriptRun } from '../../src/shared/script';
import type { ServiceContext } from '../context';
import { ScriptRunner } from '../scripts/runner';
import { ScriptScheduler } from '../scripts/scheduler';
import type { Job } from './jobs';

/**
 * The scripts' runner and their scheduler, as one job: the script actions tell it of their
 * writes, the run route asks it for a manual run.
 */
export class ScriptJob implements Job {
  readonly name = 'scripts';
  private readonly runner: ScriptRunner;
  private readonly scheduler: ScriptScheduler;
  private stopped: Promise<void> | null = null;

  constructor(ctx: ServiceContext) {
    const onError = (error: unknown) => ctx.log.error({ err: error }, 'script run failed');
    this.runner = new ScriptRunner(ctx, { onError });
    this.scheduler = new ScriptScheduler(ctx, this.runner, onError);
  }

  start(): Promise<void> {
    return this.scheduler.start();
  }

  /** The script was created, changed or deleted; resolves once its schedule follows. */
  changed(id: string): Promise<void> {
    return this.scheduler.changed(id);
  }

  /** Runs the script now; null when it does not exist. Throws RunnerStopped once stopping. */
  run(id: string, trigger: ScriptRun['trigger']): Promise<ScriptRun | null> {
    return this.runner.run(id, trigger);
  }

  /** Runs under way are aborted (a manual one answers 503 at once) and waited for. */
  stop(): Promise<void> {
    this.scheduler.stop();
    this.stopped ??= this.runner.close();
    return this.stopped;
  }
}
