import { performance } from 'node:perf_hooks';
import type { Flow } from '../../src/shared/flow';
import type { ScriptRun, ScriptRunOutcome } from '../../src/shared/script';
import { boundToAccount, currentAccount, withAccount } from '../accounts/scope';
import type { ServiceContext } from '../context';
import { DomainError } from '../domain/errors';
import { newId } from '../ids';
import { FlowRepository } from '../repositories/flows';
import { ScriptRepository } from '../repositories/scripts';
import { ScriptSecretRepository } from '../repositories/script-secrets';
import { ArgumentError } from './duration';
import { FairQueue } from './fair-queue';
import { markFlowErrored, writeFlowMetrics } from './feed-flow';
import { HttpLibraryError, httpGet, httpGetJson } from './http-library';
import { postFromScript } from './notifications-library';
import { RunBudget, type ScriptTimeUse } from './run-budget';
import {
  DEFAULT_LIMITS,
  ScriptSandbox,
  type LibraryCall,
  type SandboxLimits,
  type SandboxRun,
} from './sandbox';
import { SecretMask } from './secret-mask';

export interface RunnerOptions {
  /** Runs at the same time, shared between accounts in turn (fair-queue.ts); the others wait. */
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

/**
 * The account has used its script time for the hour (`--script-seconds-per-hour`): a manual run
 * is refused with it (429, with Retry-After), a scheduled one is recorded as refused.
 */
export class ScriptTimeSpent extends Error {
  constructor(
    readonly limitSeconds: number,
    readonly retryAfterSeconds: number,
  ) {
    super(
      `this account's scripts have used their ${limitSeconds} s of script time for this hour ` +
        `(the limit of script time per hour); runs can start again in ${retryAfterSeconds} s`,
    );
    this.name = 'ScriptTimeSpent';
  }
}

interface QueuedRun {
  scriptId: string;
  /** The script's account: the one that asked for a manual run, the script's for a scheduled one. */
  account: string;
  trigger: ScriptRun['trigger'];
  resolve: (run: ScriptRun | null) => void;
  reject: (error: unknown) => void;
}

/**
 * Runs scripts in sandboxes, at most `maxConcurrent` at once, shared between accounts in turn,
 * one at a time per script, and within each account's hourly script time; turns each run into
 * its record and its effect on the script's flow.
 */
export class ScriptRunner {
  private readonly queue = new FairQueue<QueuedRun>();
  /** Script id → its sandbox (null while the run is being prepared). */
  private readonly running = new Map<string, SandboxRun | null>();
  /** Script id → its run's account and when it got its slot (performance.now()). */
  private readonly slots = new Map<string, { account: string; since: number }>();
  private readonly budget: RunBudget;
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
    this.budget = new RunBudget(ctx.config.scriptSecondsPerHour * 1000, () => ctx.clock.now().getTime());
  }

  /**
   * Runs the script once, in its account's turn; its record, or null when it does not exist. A
   * manual run asks in the current account; a scheduled one (outside any) runs as its script's.
   * Over the account's script time, a manual run throws ScriptTimeSpent and a scheduled one is
   * recorded as refused.
   */
  run(scriptId: string, trigger: ScriptRun['trigger']): Promise<ScriptRun | null> {
    if (this.closed) return Promise.reject(new RunnerStopped());
    return this.enqueue(scriptId, trigger, currentAccount());
  }

  /** The account's script time this hour, its runs under way included. */
  usage(account: string): ScriptTimeUse {
    return { ...this.budget.use(account, this.runningMs(account)), limitMs: this.budget.limitMs };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.drain()) job.reject(new RunnerStopped());
    for (const sandbox of this.running.values()) sandbox?.abort();
    await Promise.allSettled([...this.tasks]);
    this.sandbox.close();
  }

  private async enqueue(
    scriptId: string,
    trigger: ScriptRun['trigger'],
    asking: string | undefined,
  ): Promise<ScriptRun | null> {
    // The queue shares slots by account, so a scheduled run learns its account before it waits.
    const account = asking ?? (await new ScriptRepository(this.ctx.db).accountOf(scriptId));
    if (account === null) return null;
    if (this.closed) throw new RunnerStopped();
    const job = { scriptId, account, trigger };
    const retryAfter = this.budget.retryAfterSeconds(account, this.runningMs(account));
    if (retryAfter !== null) return this.refuse(job, retryAfter);
    return new Promise((resolve, reject) => {
      this.queue.push(account, { ...job, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.running.size < this.options.maxConcurrent) {
      const next = this.queue.take((job) => !this.running.has(job.scriptId));
      if (!next) return;
      const job = next.item;
      this.running.set(job.scriptId, null);
      this.slots.set(job.scriptId, { account: job.account, since: performance.now() });
      const task: Promise<void> = this.execute(job)
        .then(job.resolve, job.reject)
        .finally(() => {
          this.running.delete(job.scriptId);
          this.queue.release(job.account);
          this.tasks.delete(task);
          if (!this.closed) this.pump();
        });
      this.tasks.add(task);
    }
  }

  /** Run time of the account's runs under way, so far. */
  private runningMs(account: string): number {
    const now = performance.now();
    let ms = 0;
    for (const slot of this.slots.values()) if (slot.account === account) ms += now - slot.since;
    return ms;
  }

  /**
   * Runs the job as its script's account: whatever the script reads and writes (its flow, the
   * notifications it posts) is that account's. The account's time is checked again (its other
   * runs may have spent it while this one waited) and charged from the slot to the run's end.
   */
  private async execute(job: Omit<QueuedRun, 'resolve' | 'reject'>): Promise<ScriptRun | null> {
    const slot = this.slots.get(job.scriptId);
    try {
      const retryAfter = this.budget.retryAfterSeconds(job.account, this.runningMs(job.account));
      if (retryAfter !== null) {
        // Refused: not a run, its moment in the slot costs nothing.
        this.slots.delete(job.scriptId);
        return await this.refuse(job, retryAfter);
      }
      return await withAccount(job.account, () => this.executeAs(job));
    } finally {
      if (slot && this.slots.get(job.scriptId) === slot) {
        this.slots.delete(job.scriptId);
        this.budget.charge(job.account, performance.now() - slot.since);
      }
    }
  }

  /**
   * The account has no script time left: a manual run is refused to its caller; a scheduled one
   * is recorded as an error run naming the limit, so the operator sees why the flow went stale.
   */
  private async refuse(
    job: Omit<QueuedRun, 'resolve' | 'reject'>,
    retryAfter: number,
  ): Promise<ScriptRun | null> {
    this.budget.refuse(job.account);
    const spent = new ScriptTimeSpent(this.budget.limitMs / 1000, retryAfter);
    if (job.trigger === 'manual') throw spent;
    return withAccount(job.account, async () => {
      const record = {
        script_id: job.scriptId,
        started_at: this.ctx.clock.now(),
        duration_ms: 0,
        outcome: 'error' as const,
        trigger: job.trigger,
        logs: [],
        error: `refused: ${spent.message}`,
      };
      const stored = await new ScriptRepository(this.ctx.db).addRun(record);
      if (stored) await this.ctx.changes.publish({ type: 'console', resource: 'scripts', id: job.scriptId });
      return stored;
    });
  }

  private async executeAs(job: Omit<QueuedRun, 'resolve' | 'reject'>): Promise<ScriptRun | null> {
    const { ctx } = this;
    const scripts = new ScriptRepository(ctx.db);
    const flows = new FlowRepository(ctx.db);
    const script = await scripts.get(job.scriptId);
    if (!script) return null;
    const fed = script.flow_id ? await flows.get(script.flow_id) : null;
    const previous = fed ? ((await flows.readData(fed.tag)) ?? {}) : {};
    // Read for this run alone: a secret set or deleted meanwhile counts from the next run.
    const values = await new ScriptSecretRepository(ctx.db, ctx.config.secretsKey).values(script.id);
    const mask = new SecretMask(Object.values(values));

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
        return this.library(call, signal, log, mask);
      }),
      { values, mask },
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
    if (stored) await ctx.changes.publish({ type: 'console', resource: 'scripts', id: script.id });
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

  /**
   * Carries out a library call. A request needs the secrets as the script put them; a
   * notification is shown on screens, so its words are masked; an error is masked wherever it
   * goes (the script's log and error are masked by the sandbox, the service's log here).
   */
  private async library(
    call: LibraryCall,
    signal: AbortSignal,
    log: (line: string) => void,
    mask: SecretMask,
  ): Promise<unknown> {
    const name = `${call.library}.${call.method}`;
    try {
      switch (name) {
        case 'notifications.post':
          return await postFromScript(this.ctx, mask.json(call.args) as unknown[], log);
        case 'http.get':
          return await httpGet(call.args, signal, this.ctx.config.scriptsHttpAllow);
        case 'http.getJson':
          return await httpGetJson(call.args, signal, this.ctx.config.scriptsHttpAllow);
      }
    } catch (error) {
      if (error instanceof ArgumentError || error instanceof HttpLibraryError) throw mask.error(error);
      // A fault of ours: the script learns that much, the log learns the rest.
      this.options.onError(mask.error(error));
      throw new Error(`${name} failed; the service's log says why`, { cause: error });
    }
    throw new Error(`${name} is not a library function`);
  }
}
