import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { playUploadSchema, type PlayReport, type PlayUpload } from '../shared/play';
import { backoffDelay } from './backoff';
import type { Clock, KeyValueStore, Logger, TimerHandle } from './ports';
import { ServiceError } from './service-client';

export interface PlayLogDeps {
  clock: Clock;
  random: () => number;
  log: Logger;
  store: KeyValueStore;
}

/** Sends a batch to the service (POST /devices/:tag/plays); throws when it could not. */
export type UploadPlays = (plays: readonly PlayUpload[]) => Promise<void>;

/** Where the plays not uploaded yet are kept across restarts. */
export const PLAYS_KEY = 'plays';
/** Plays kept while the service is away; past this the oldest go first. */
export const PLAYS_KEPT_MAX = 10_000;
/** Plays per upload: well within the service's body limit, whatever their URLs. */
export const PLAYS_BATCH = 200;
/** A play waits this long before it is uploaded, so that the plays of a few turns go together. */
export const UPLOAD_DELAY_MS = 10_000;
/** What waits is written to disk this long after it changed at most: a kiosk's flash storage wears. */
export const PERSIST_DELAY_MS = 30_000;

const storedSchema = z.array(z.unknown());

/**
 * Proof of play on the device: each play the renderer reports gets an id and waits here until
 * the service has it. While the service is away the plays are kept (at most PLAYS_KEPT_MAX,
 * written to disk within PERSIST_DELAY_MS and on stop) and uploaded in batches once it is back.
 * A batch whose answer was lost is sent again as it was: the service keeps each id once, so
 * nothing is counted twice.
 */
export class PlayLog {
  private pending: PlayUpload[] = [];
  private upload: UploadPlays | null = null;
  private uploadTimer: TimerHandle | null = null;
  private persistTimer: TimerHandle | null = null;
  private sending = false;
  private attempt = 0;
  /** Whether the disk's copy is empty: nothing to write while everything is uploaded at once. */
  private persistedEmpty = true;
  private overflowWarned = false;
  private stopped = false;

  constructor(private readonly deps: PlayLogDeps) {}

  /** The plays kept from before a restart; a damaged record is dropped, logged. */
  async restore(): Promise<void> {
    const stored = storedSchema.safeParse(await this.deps.store.read(PLAYS_KEY));
    if (!stored.success) return;
    let dropped = 0;
    for (const entry of stored.data) {
      const play = playUploadSchema.safeParse(entry);
      if (play.success) this.pending.push(play.data);
      else dropped += 1;
    }
    if (dropped > 0) this.deps.log.warn(`dropped ${dropped} damaged proof-of-play records`);
    this.persistedEmpty = this.pending.length === 0 && dropped === 0;
    if (this.pending.length > 0) this.scheduleUpload(0);
  }

  /** Where plays go from now on (the device has a service and a credential). */
  connect(upload: UploadPlays): void {
    this.upload = upload;
    this.flush();
  }

  /** Plays waiting for the service. */
  get size(): number {
    return this.pending.length;
  }

  record(report: PlayReport): void {
    if (this.stopped) return;
    this.pending.push({ id: randomUUID(), ...report });
    if (this.pending.length > PLAYS_KEPT_MAX) {
      this.pending.splice(0, this.pending.length - PLAYS_KEPT_MAX);
      if (!this.overflowWarned) {
        this.deps.log.warn(`more than ${PLAYS_KEPT_MAX} plays wait for the service: dropping the oldest`);
        this.overflowWarned = true;
      }
    }
    this.schedulePersist();
    if (!this.uploadTimer && !this.sending) this.scheduleUpload(UPLOAD_DELAY_MS);
  }

  /** The service is reachable again: what waits goes now, not after the backoff. */
  flush(): void {
    if (this.pending.length === 0 || this.sending) return;
    this.attempt = 0;
    this.scheduleUpload(0);
  }

  /** Stops the timers and writes what waits. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.uploadTimer?.cancel();
    this.persistTimer?.cancel();
    await this.persist();
  }

  private scheduleUpload(delayMs: number): void {
    this.uploadTimer?.cancel();
    this.uploadTimer = this.deps.clock.setTimeout(() => {
      this.uploadTimer = null;
      void this.send();
    }, delayMs);
  }

  private async send(): Promise<void> {
    const upload = this.upload;
    if (this.sending || this.stopped || !upload) return;
    this.sending = true;
    try {
      while (this.pending.length > 0 && !this.stopped) {
        const batch = this.pending.slice(0, PLAYS_BATCH);
        try {
          await upload(batch);
        } catch (error) {
          if (!refusedForGood(error)) {
            this.retry(error);
            return;
          }
          // Sent again it would be refused again, and hold up everything behind it.
          this.deps.log.error(
            `the service refused ${batch.length} plays, dropped: ${(error as Error).message}`,
          );
        }
        const sent = new Set(batch.map((play) => play.id));
        this.pending = this.pending.filter((play) => !sent.has(play.id));
        this.attempt = 0;
        this.overflowWarned = false;
        this.schedulePersist();
      }
    } finally {
      this.sending = false;
    }
  }

  private retry(error: unknown): void {
    const delay = backoffDelay(this.attempt++, this.deps.random);
    if (this.attempt === 1) {
      this.deps.log.warn(
        `${this.pending.length} plays wait for the service (${(error as Error).message}); trying again in ${Math.round(delay / 1000)} s`,
      );
    }
    this.scheduleUpload(delay);
  }

  private schedulePersist(): void {
    if (this.persistTimer || this.stopped) return;
    this.persistTimer = this.deps.clock.setTimeout(() => {
      this.persistTimer = null;
      void this.persist();
    }, PERSIST_DELAY_MS);
  }

  private async persist(): Promise<void> {
    const empty = this.pending.length === 0;
    if (empty && this.persistedEmpty) return;
    try {
      await this.deps.store.write(PLAYS_KEY, this.pending);
      this.persistedEmpty = empty;
    } catch (error) {
      this.deps.log.warn(`could not keep the plays on disk: ${(error as Error).message}`);
    }
  }
}

/** A refusal that no retry changes: the batch itself is wrong (400, 413, 422). */
function refusedForGood(error: unknown): boolean {
  return error instanceof ServiceError && [400, 413, 422].includes(error.status);
}
