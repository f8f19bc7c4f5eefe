import { performance } from 'node:perf_hooks';
import type { Flow } from '../../src/shared/flow';
import type { ScriptRun, ScriptRunOutcome } from '../../src/shared/script';
import { boundToAccount, currentAccount, withAccount } from '../accounts/scope';
import type { ServiceContext } from '../context';
import { DomainError } from '../domain/errors';
import { newId } from '../ids';
import { FlowRepository } from '../repositories/flows';
import { ScriptRepository } from '../repositories/scripts';
import { ArgumentError } from './duration';
import { markFlowErrored, writeFlowMetrics } from './feed-flow';
import { HttpLibraryError, httpGet, httpGetJson } from './http-library';
import { postFromScript } from './notifications-library';
import {
  DEFAULT_LIMITS,
  ScriptSandbox,
  type LibraryCall,
  type SandboxLimits,
  type SandboxRun,
} from './sandbox';

export interface RunnerOptions {
  /** Runs at the same time; the others wait in line. */
  maxConcurrent: number;
  limits: Omit<SandboxLimits, 'timeoutMs'>;
  /** Notifications one run may post. */
  notificationsPerRun: number;
  onError: (error: unknown) => void;
}

export const DEFAULT_RUNNER_OPTIONS: Omit<RunnerOptions, 'onError'> = {
  maxConcurrent: 2,
  limits: DEFAULT_LIMITS,
  notificationsPerRun: 10,
};

/**
 * The service is stopping: queued runs are dropped and running ones are not recorded. A manual
 * run is answered 503 with it.
 */
export class RunnerStopped extends DomainError {
  constructor() {
    super('unavailable', 'the service is stopping');
  }
}

interface QueuedRun {
  scriptId: string;
  /** The account that asked (a manual run's), or none: the scheduler's, which runs every account's. */
  account: string | undefined;
  trigger: ScriptRun['trigger'];
  resolve: (run: ScriptRun | null) => void;
  reject: (error: unknown) => void;
}

/**
 * Runs scripts in sandboxes, at most `maxConcurrent` at once and one at a time per script, and
 * turns each run into its record and its effect on the script's flow.
 */
export class ScriptRunner {
  private readonly queue: QueuedRun[] = [];
  /** Script id → its sandbox (null while the run is being prepared). */
  private readonly running = new Map<string, SandboxRun | null>();
  private readonly tasks = new Set<Promise<void>>();
  private readonly options: RunnerOptions;
  private readonly sandbox: ScriptSandbox;
  private closed = false;

  constructor(
    private readonly ctx: ServiceContext,
    options: Partial<RunnerOptions> & Pick<RunnerOptions, 'onError'>,
  ) {
    this.options = { ...DEFAULT_RUNNER_OPTIONS, ...options };
    this.sandbox = new ScriptSandbox({ idle: this.options.maxConcurrent });
  }

  /** Runs the script once, after those already waiting; its record, or null when it does not exist. */
  run(scriptId: string, trigger: ScriptRun['trigger']): Promise<ScriptRun | null> {
    if (this.closed) return Promise.reject(new RunnerStopped());
    return new Promise((resolve, reject) => {
      this.queue.push({ scriptId, account: currentAccount(), trigger, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new RunnerStopped());
    for (const sandbox of this.running.values()) sandbox?.abort();
    await Promise.allSettled([...this.tasks]);
    this.sandbox.close();
  }

  private pump(): void {
    while (this.running.size < this.options.maxConcurrent) {
      const index = this.queue.findIndex((job) => !this.running.has(job.scriptId));
      if (index < 0) return;
      const [job] = this.queue.splice(index, 1);
      if (!job) return;
      this.running.set(job.scriptId, null);
      const task: Promise<void> = this.execute(job)
        .then(job.resolve, job.reject)
        .finally(() => {
          this.running.delete(job.scriptId);
          this.tasks.delete(task);
          if (!this.closed) this.pump();
        });
      this.tasks.add(task);
    }
  }

  /**
   * Runs the job as its script's account: whatever the script reads and writes (its flow, the
   * notifications it posts) is that account's. A manual run looks in the asking account only.
   */
  private async execute(job: QueuedRun): Promise<ScriptRun | null> {
    const account = job.account ?? (await new ScriptRepository(this.ctx.db).accountOf(job.scriptId));
    if (account === null) return null;
    return withAccount(account, () => this.executeAs(job));
  }

  private async executeAs(job: QueuedRun): Promise<ScriptRun | null> {
    const { ctx } = this;
    const scripts = new ScriptRepository(ctx.db);
    const flows = new FlowRepository(ctx.db);
    const script = await scripts.get(job.scriptId);
    if (!script) return null;
    const fed = script.flow_id ? await flows.get(script.flow_id) : null;
    const previous = fed ? ((await flows.readData(fed.tag)) ?? {}) : {};

    const startedAt = ctx.clock.now();
    const start = performance.now();
    let notifications = 0;
    const sandbox = this.sandbox.run(
      script.code,
      JSON.stringify(previous),
      { ...this.options.limits, timeoutMs: script.timeout_seconds * 1000 },
      // Called from the sandbox's messages: bound, to act as the script's account still.
      boundToAccount((call: LibraryCall, signal: AbortSignal, log: (line: string) => void) => {
        if (call.library === 'notifications' && ++notifications > this.options.notificationsPerRun) {
          return Promise.reject(
            new Error(`notifications.post: at most ${this.options.notificationsPerRun} per run`),
          );
        }
        return this.library(call, signal, log);
      }),
    );
    this.running.set(script.id, sandbox);
    if (this.closed) sandbox.abort();
    const result = await sandbox.result;
    const durationMs = Math.round(performance.now() - start);
    if (this.closed) throw new RunnerStopped();

    let outcome: ScriptRunOutcome = result.outcome;
    let error = result.outcome === 'ok' ? null : result.error;
    // The script and its flow as they are now: either may have changed during the run. A result
    // meant for a flow the script no longer feeds is dropped.
    const current = await scripts.get(script.id);
    const stillFeeds = current !== null && current.flow_id === script.flow_id;
    const flow = stillFeeds && script.flow_id ? await flows.get(script.flow_id) : null;
    if (flow && result.outcome === 'ok') {
      const problem = await this.feed(flow, result.result);
      if (problem) {
        outcome = 'invalid';
        error = problem;
      }
    }
    if (flow) await markFlowErrored(ctx, flow, outcome !== 'ok');

    const record = {
      script_id: script.id,
      started_at: startedAt,
      duration_ms: durationMs,
      outcome,
      trigger: job.trigger,
      logs: result.logs,
      error,
    };
    // Null: deleted while it ran. The caller still gets what happened.
    const stored = await scripts.addRun(record);
    if (stored) ctx.notices.changed('scripts', script.id);
    return stored ?? { ...record, id: newId('run'), started_at: startedAt.toISOString() };
  }

  /** Writes the result as the flow's metrics; why it was refused, or null. */
  private async feed(flow: Flow, result: string | null): Promise<string | null> {
    if (result === null) {
      return 'the script returned nothing; a script that feeds a flow must return its metrics';
    }
    if (result.length > this.ctx.config.bodyLimit) {
      return `the result is larger than ${this.ctx.config.bodyLimit} bytes of JSON`;
    }
    const written = await writeFlowMetrics(this.ctx, flow, JSON.parse(result));
    return written.status === 'invalid' ? written.message : null;
  }

  private async library(
    call: LibraryCall,
    signal: AbortSignal,
    log: (line: string) => void,
  ): Promise<unknown> {
    const name = `${call.library}.${call.method}`;
    try {
      switch (name) {
        case 'notifications.post':
          return await postFromScript(this.ctx, call.args, log);
        case 'http.get':
          return await httpGet(call.args, signal, this.ctx.config.scriptsHttpAllow);
        case 'http.getJson':
          return await httpGetJson(call.args, signal, this.ctx.config.scriptsHttpAllow);
      }
    } catch (error) {
      if (error instanceof ArgumentError || error instanceof HttpLibraryError) throw error;
      // A fault of ours: the script learns that much, the log learns the rest.
      this.options.onError(error);
      throw new Error(`${name} failed; the service's log says why`, { cause: error });
    }
    throw new Error(`${name} is not a library function`);
  }
}
