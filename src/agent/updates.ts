import { z } from 'zod';
import type { PlayerState } from '../shared/bridge';
import {
  releaseKindSchema,
  type ReleaseKind,
  type ReleaseOffer,
  type ScreenReleases,
  type UpdateReport,
} from '../shared/release';
import { backoffDelay, type BackoffPolicy } from './backoff';
import type { Clock, KeyValueStore, Logger, TimerHandle } from './ports';
import { UpdateReportQueue, type SendUpdateReport } from './update-reports';
import { UpdateRefused, type ReleaseSource, type UpdateTarget } from './update-ports';

export type { UpdateTarget } from './update-ports';

export interface UpdateCoordinatorDeps {
  clock: Clock;
  random: () => number;
  log: Logger;
  store: KeyValueStore;
}

/** What the coordinator keeps across restarts (the reports wait in update-reports.ts). */
export const UPDATES_KEY = 'updates';
/** Downloads that failed for a passing reason (the service away) are tried again within this. */
export const DOWNLOAD_RETRY: BackoffPolicy = { baseMs: 30_000, maxMs: 60 * 60 * 1000 };

const attemptSchema = z.object({ release_id: z.string(), version: z.string() });
const storedSchema = z.object({
  /** Per kind, the offer that failed: not tried again until the service offers another. */
  failed: z.partialRecord(releaseKindSchema, attemptSchema.extend({ reason: z.string() })).default({}),
  /** Per kind, the install under way when the process ended: judged at the next start. */
  installing: z.partialRecord(releaseKindSchema, attemptSchema.extend({ from: z.string() })).default({}),
});
type Stored = z.infer<typeof storedSchema>;

/** Order of installs at one moment: the web bundle reloads in place, the shell's ends the process. */
const KINDS: readonly ReleaseKind[] = ['web', 'shell'];

interface Job {
  offer: ReleaseOffer;
  target: UpdateTarget;
  controller: AbortController;
  phase: 'downloading' | 'waiting' | 'ready' | 'installing';
  attempt: number;
  timer: TimerHandle | null;
}

const keyOf = (offer: Pick<ReleaseOffer, 'release_id' | 'version'>) => `${offer.release_id}@${offer.version}`;

/** A renderer's `showing` that is an item of a playlist (not `waiting`, a setup face, no renderer). */
const isItem = (showing: string) => /^(board|image|video|web):/.test(showing);

/**
 * Applies the releases the service offers this screen (docs/agent.md, "Updates"), one target per
 * kind (update-ports.ts). For each kind, an offer whose version differs from the one running (a
 * lower one is a rollback) is downloaded and verified at once, and installed at the first allowed
 * moment: at once while the screen is off in a power window or shows no item (nothing to play,
 * a setup face, no renderer yet), else at the next item switch, never while an emergency
 * override is on screen. It reports `downloading`, then `installed` or `failed` with why, through a
 * queue that keeps them until the service has them. An offer that failed (a file that does not
 * verify, an install that did not take) is not tried again until the service offers another; a
 * download that failed for a passing reason is tried again with backoff.
 */
export class UpdateCoordinator {
  private readonly targets = new Map<ReleaseKind, UpdateTarget>();
  private readonly reports: UpdateReportQueue;
  private readonly jobs = new Map<ReleaseKind, Job>();
  private stored: Stored = { failed: {}, installing: {} };
  private offers: ScreenReleases | null = null;
  private service: { server: string; token: string } | null = null;
  /** What the screen does now, as the states and the renderer's reports tell. */
  private off = false;
  private override = false;
  private item: string | null = null;
  private online = false;
  private installs: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly deps: UpdateCoordinatorDeps,
    targets: readonly UpdateTarget[],
  ) {
    for (const target of targets) this.targets.set(target.kind, target);
    this.reports = new UpdateReportQueue(deps);
  }

  /** Reports waiting for the service (for tests and the docs' examples). */
  get waitingReports(): readonly UpdateReport[] {
    return this.reports.waiting;
  }

  /**
   * Reads what was kept; an install a previous process began is judged now: the version it
   * installed runs (`installed`) or it does not (`failed`, and that offer is not tried again).
   */
  async restore(): Promise<void> {
    await this.reports.restore();
    const stored = storedSchema.safeParse(await this.deps.store.read(UPDATES_KEY));
    if (stored.success) this.stored = stored.data;
    const installing = this.stored.installing;
    this.stored.installing = {};
    for (const kind of releaseKindSchema.options) {
      const attempt = installing[kind];
      const target = this.targets.get(kind);
      if (!attempt || !target) continue;
      const running = target.currentVersion();
      if (running === attempt.version) {
        this.deps.log.info(`${kind} ${attempt.version} installed (was ${attempt.from})`);
        await this.report(kind, attempt.version, 'installed', `from ${attempt.from}`);
      } else {
        const reason = `the install of ${attempt.version} did not take: ${running} runs`;
        this.stored.failed[kind] = { ...attempt, reason };
        this.deps.log.error(`${kind}: ${reason}`);
        await this.report(kind, attempt.version, 'failed', reason);
      }
    }
    if (Object.keys(installing).length > 0) await this.persist();
  }

  /** A session with the service: where files come from (with its token) and reports go. */
  connect(service: { server: string; token: string }, send: SendUpdateReport): void {
    this.service = service;
    this.reports.connect(send);
    for (const job of this.jobs.values()) if (job.phase === 'waiting') this.download(job);
    this.consider();
  }

  /** Every state the renderer is told: the offers, and whether the screen is off or overridden. */
  observe(state: PlayerState): void {
    if (this.stopped) return;
    this.off = state.display?.off ?? false;
    this.override = Boolean(state.override);
    if (state.online && !this.online) this.reports.flush();
    this.online = state.online;
    if (state.settings) this.offers = state.settings.release;
    this.consider();
    this.installIfAllowed(false);
  }

  /** The renderer's report of what is on screen: a change of item is a moment to install. */
  showing(showing: string): void {
    const item = isItem(showing) ? showing : null;
    const switched = item !== this.item;
    this.item = item;
    if (switched) this.installIfAllowed(true);
  }

  /** An item left the screen (a play report): a moment to install, an only item's turn included. */
  itemEnded(): void {
    this.installIfAllowed(true);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const job of this.jobs.values()) this.cancel(job);
    this.jobs.clear();
    await this.reports.stop();
  }

  /** Starts, keeps or drops each kind's job for the offers now known. */
  private consider(): void {
    for (const [kind, target] of this.targets) {
      const offer = this.offers?.[kind] ?? null;
      const job = this.jobs.get(kind);
      if (job && job.phase !== 'installing' && (!offer || keyOf(offer) !== keyOf(job.offer))) {
        this.cancel(job);
        this.jobs.delete(kind);
      }
      if (!offer || this.jobs.has(kind) || this.stopped) continue;
      if (offer.version === target.currentVersion()) continue;
      const failed = this.stored.failed[kind];
      if (failed && keyOf(failed) === keyOf(offer)) continue;
      if (failed) {
        // Another offer: the one that failed may be tried again if it is offered again later.
        this.stored.failed = without(this.stored.failed, kind);
        void this.persist();
      }
      const fresh: Job = {
        offer,
        target,
        controller: new AbortController(),
        phase: 'waiting',
        attempt: 0,
        timer: null,
      };
      this.jobs.set(kind, fresh);
      const direction = compareVersions(offer.version, target.currentVersion()) < 0 ? 'rollback' : 'update';
      this.deps.log.info(
        `${kind}: ${direction} to ${offer.version} offered (runs ${target.currentVersion()})`,
      );
      void this.report(kind, offer.version, 'downloading', `${direction} from ${target.currentVersion()}`);
      if (this.service) this.download(fresh);
    }
  }

  private download(job: Job): void {
    const service = this.service;
    if (!service || this.stopped) return;
    job.timer?.cancel();
    job.timer = null;
    job.phase = 'downloading';
    const { offer, target, controller } = job;
    let source: ReleaseSource;
    try {
      source = sourceOf(offer, service);
    } catch (error) {
      void this.fail(job, error);
      return;
    }
    target.download(offer, source, controller.signal).then(
      () => {
        if (controller.signal.aborted) return;
        job.phase = 'ready';
        this.deps.log.info(
          `${offer.kind} ${offer.version} downloaded and verified; installs at the next allowed moment`,
        );
        this.installIfAllowed(false);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof UpdateRefused) {
          void this.fail(job, error);
          return;
        }
        const delay = backoffDelay(job.attempt++, this.deps.random, DOWNLOAD_RETRY);
        job.phase = 'waiting';
        this.deps.log.warn(
          `${offer.kind} ${offer.version}: the download failed (${(error as Error).message}); trying again in ${Math.round(delay / 1000)} s`,
        );
        job.timer = this.deps.clock.setTimeout(() => this.download(job), delay);
      },
    );
  }

  /**
   * Installs what is ready, if now is allowed: never under an emergency override; at once while
   * the screen is off or shows no item; else only at a `moment` (an item switch).
   */
  private installIfAllowed(moment: boolean): void {
    if (this.stopped || this.override) return;
    if (!(moment || this.off || this.item === null)) return;
    for (const kind of KINDS) {
      const job = this.jobs.get(kind);
      if (job?.phase !== 'ready') continue;
      job.phase = 'installing';
      this.installs = this.installs.then(() => this.install(kind, job));
    }
  }

  private async install(kind: ReleaseKind, job: Job): Promise<void> {
    const { offer, target } = job;
    const from = target.currentVersion();
    // Written down first: an install that ends the process is judged at the next start.
    this.stored.installing[kind] = { release_id: offer.release_id, version: offer.version, from };
    await this.persist();
    this.deps.log.info(`${kind}: installing ${offer.version} (runs ${from})`);
    let result;
    try {
      result = await target.install(offer);
    } catch (error) {
      this.stored.installing = without(this.stored.installing, kind);
      await this.fail(job, error);
      return;
    }
    if (result === 'restarting') return;
    this.stored.installing = without(this.stored.installing, kind);
    this.jobs.delete(kind);
    const running = target.currentVersion();
    if (running !== offer.version) {
      await this.fail(job, new Error(`installed, but ${running} runs`));
      return;
    }
    await this.persist();
    await this.report(kind, offer.version, 'installed', `from ${from}`);
  }

  /**
   * The offer failed for good (or was rolled back: an error with `outcome: 'rolled_back'`):
   * reported, remembered, and not tried again until another comes.
   */
  private async fail(job: Job, error: unknown): Promise<void> {
    const { offer } = job;
    const reason = (error as Error).message;
    const outcome = (error as { outcome?: unknown }).outcome === 'rolled_back' ? 'rolled_back' : 'failed';
    this.cancel(job);
    if (this.jobs.get(offer.kind) === job) this.jobs.delete(offer.kind);
    this.stored.failed[offer.kind] = { release_id: offer.release_id, version: offer.version, reason };
    this.deps.log.error(
      `${offer.kind} ${offer.version} ${outcome === 'failed' ? 'refused' : 'rolled back'}: ${reason}`,
    );
    await this.persist();
    await this.report(offer.kind, offer.version, outcome, reason);
  }

  private cancel(job: Job): void {
    job.timer?.cancel();
    job.timer = null;
    job.controller.abort();
  }

  private report(kind: ReleaseKind, version: string, outcome: UpdateReport['outcome'], detail: string) {
    return this.reports.add({ kind, version, outcome, detail });
  }

  private async persist(): Promise<void> {
    try {
      await this.deps.store.write(UPDATES_KEY, this.stored);
    } catch (error) {
      this.deps.log.warn(`could not keep the updates' state on disk: ${(error as Error).message}`);
    }
  }
}

/** The record without its entry for `kind`. */
function without<T>(
  record: Partial<Record<ReleaseKind, T>>,
  kind: ReleaseKind,
): Partial<Record<ReleaseKind, T>> {
  const { [kind]: _dropped, ...rest } = record;
  return rest;
}

/**
 * Where an offer's files are: its `base_url` on the service this screen talks to. The token goes
 * to that service alone, so a base on another origin is refused rather than sent the token.
 */
export function sourceOf(offer: ReleaseOffer, service: { server: string; token: string }): ReleaseSource {
  const server = new URL(service.server);
  const base = /^[a-z][a-z0-9+.-]*:/i.test(offer.base_url)
    ? new URL(offer.base_url)
    : new URL(`${service.server.replace(/\/+$/, '')}/${offer.base_url.replace(/^\/+/, '')}`);
  if (base.origin !== server.origin) {
    throw new UpdateRefused(`the release's files are on ${base.origin}, not on this screen's service`);
  }
  return { baseUrl: base.href.replace(/\/+$/, ''), token: service.token };
}

/** Orders two semantic versions by their numbers (a pre-release before its release); enough to name a rollback. */
export function compareVersions(a: string, b: string): number {
  const parse = (version: string) => {
    const [core = '', pre] = (version.split('+')[0] ?? '').split(/-(.*)/s);
    return { numbers: core.split('.').map(Number), pre: pre ?? null };
  };
  const left = parse(a);
  const right = parse(b);
  for (let i = 0; i < 3; i++) {
    const difference = (left.numbers[i] ?? 0) - (right.numbers[i] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  if (left.pre === right.pre) return 0;
  if (left.pre === null) return 1;
  if (right.pre === null) return -1;
  return left.pre < right.pre ? -1 : 1;
}
