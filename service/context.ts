import { randomBytes } from 'node:crypto';
import type { Alert } from '../src/shared/alert';
import type { ScriptRun } from '../src/shared/script';
import { NodeState } from './cluster/node-state';
import type { Database } from './db/database';
import { TokenAuthenticator } from './http/auth';
import { DEFAULT_PAIRING_LIMITS, type PairingLimits } from './http/pairing-limits';
import { ChangePipeline } from './realtime/changes';
import { SessionEnds } from './realtime/session-ends';
import { TokenRepository } from './repositories/tokens';
import { PUBLIC_ONLY, type HttpAllowPolicy } from './scripts/destinations';
import type { ScriptTimeUse } from './scripts/run-budget';
import { SeenMedia } from './visibility/seen-media';

export interface ServiceConfig {
  /** Largest request body, in bytes. */
  bodyLimit: number;
  /** A device with no heartbeat for this long is marked offline. */
  offlineAfterSeconds: number;
  /** How many realtime events are kept for replay to reconnecting devices. */
  eventRetention: number;
  /** At most this many bytes of their payloads: a few large metric writes must not fill the disk. */
  eventRetentionBytes: number;
  /** Notifications kept: the newest this many, none older than `notificationRetentionDays`. */
  notificationRetention: number;
  notificationRetentionDays: number;
  /** Audit trail entries older than this many days are deleted (`--audit-retention-days`, docs/audit.md). */
  auditRetentionDays: number;
  /**
   * The key scripts' secrets are sealed with at rest (domain/secret-box.ts); null: kept as written.
   * server.ts reads it (`secretsKey`); a service built without one (tests) has a key of its process.
   */
  secretsKey: Buffer | null;
  /** Where scripts' `wallboard/http` may connect (`--scripts-http-allow`); public addresses only by default. */
  scriptsHttpAllow: HttpAllowPolicy;
  /**
   * Script time each account may use per hour (`--script-seconds-per-hour`): the wall time of its
   * runs, each from its slot to its end; over it, its runs are refused until the hour frees some.
   */
  scriptSecondsPerHour: number;
  /** Scripts an account may have enabled at once (`--scripts-enabled-per-account`). */
  scriptsEnabledPerAccount: number;
  /** The largest file the media library takes (`--media-max-mb`); a larger upload is answered 413. */
  mediaMaxBytes: number;
  /**
   * Where the embedded store keeps the library's files (`<data>/media`); null: a temporary folder
   * removed when the app closes (an in-memory store's). PostgreSQL keeps them itself, and
   * receives uploads in its `incoming/` (or a temporary folder).
   */
  mediaDir: string | null;
  /**
   * Where maps' tiles come from (`--map-tiles`, `--map-attribution`, `--map-max-zoom`): a URL
   * template with {z}, {x} and {y}, fetched by the service for screens; null: none
   * (`--no-map-tiles`).
   */
  mapTiles: { urlTemplate: string; attribution: string; maxZoom: number } | null;
  /** The Open-Meteo compatible forecast API weather widgets are fed from (`--weather-url`). */
  weatherUrl: string;
  /** Media and notification sounds may be plain http URLs (`--allow-http-media`); https only otherwise. */
  httpMedia: boolean;
  /** Custom widgets may reach https addresses (`--custom-widgets-network`); otherwise they have no network. */
  customWidgetsNetwork: boolean;
  /**
   * A data source an admin switched to `allow_private` may reach loopback and private addresses
   * (off with `--no-private-data-sources`); others follow `scriptsHttpAllow`.
   */
  privateDataSources: boolean;
  /**
   * The proxies whose X-Forwarded-For is believed (`--trust-proxy`: addresses, ranges, or
   * `loopback`), so that limits per client address count clients, not the load balancer; null:
   * none, the connection's address is the client's.
   */
  trustProxy: string[] | null;
  /** Pairing against guessing and flooding: wrong codes, live pairings in all and per source. */
  pairing: PairingLimits;
  /** The SMTP server e-mail alerts go through (`--smtp-url`, `--smtp-from`); null: no e-mail alerts. */
  smtp: SmtpOptions | null;
}

/** An SMTP server: `smtp://host:port` (STARTTLS when offered) or `smtps://` (TLS), with user and password in the URL. */
export interface SmtpOptions {
  url: string;
  /** The sender of alert e-mails. */
  from: string;
}

/** OpenStreetMap's standard tiles, used within its tile usage policy: fetched once by the service, cached, attributed. */
export const OSM_TILES = {
  urlTemplate: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  attribution: '© OpenStreetMap contributors',
  maxZoom: 19,
};

export const DEFAULT_CONFIG: ServiceConfig = {
  bodyLimit: 1024 * 1024,
  offlineAfterSeconds: 90,
  eventRetention: 10_000,
  eventRetentionBytes: 64 * 1024 * 1024,
  notificationRetention: 10_000,
  notificationRetentionDays: 30,
  auditRetentionDays: 365,
  secretsKey: randomBytes(32),
  scriptsHttpAllow: PUBLIC_ONLY,
  // One slot's whole hour, and more scripts than a dashboard needs: a single account never meets them.
  scriptSecondsPerHour: 3600,
  scriptsEnabledPerAccount: 200,
  mediaMaxBytes: 200 * 1024 * 1024,
  mediaDir: null,
  mapTiles: OSM_TILES,
  weatherUrl: 'https://api.open-meteo.com',
  httpMedia: false,
  customWidgetsNetwork: false,
  privateDataSources: true,
  trustProxy: null,
  pairing: DEFAULT_PAIRING_LIMITS,
  smtp: null,
};

/** Cancels what a clock was asked to run. */
export type Cancel = () => void;

/** Time, and timers on it: every job schedules through the context's clock, so a test can move it. */
export interface Clock {
  now(): Date;
  /** Runs `run` once after `ms`; a test's clock waits for what it returns (a job's pass). */
  setTimeout(run: () => unknown, ms: number): Cancel;
}

/** The real time. Its timers do not keep the process alive: a stopped service must be free to exit. */
export const systemClock: Clock = {
  now: () => new Date(),
  setTimeout(run, ms) {
    const timer = setTimeout(run, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/** A clock that only tells the time (a test's fixed one) schedules on the real timers. */
export type TimeSource = Pick<Clock, 'now'> & Partial<Clock>;

export function withTimers(time: TimeSource): Clock {
  return time.setTimeout ? (time as Clock) : { now: () => time.now(), setTimeout: systemClock.setTimeout };
}

/** Where background work reports what failed: the app's logger. */
export interface ServiceLog {
  error(details: { err: unknown }, message: string): void;
}

/**
 * What actions and routes ask of the background jobs. The app builds the jobs on the context
 * (jobs/service-jobs.ts) and hands them in, so that the context imports no job: the jobs import
 * actions, and actions the context.
 */
export interface JobsPort {
  /** A script was created, changed or deleted: its schedule follows, on every node. */
  scriptChanged(id: string): Promise<void>;
  /** Runs the script now; null when it does not exist. Throws RunnerStopped once stopping. */
  runScript(id: string, trigger: ScriptRun['trigger']): Promise<ScriptRun | null>;
  /** The account's script time this hour, as this node counted it. */
  scriptUsage(account: string): ScriptTimeUse;
  /** Whether this node runs what happens once across the service's nodes (cluster/leases.ts). */
  isLeading(): boolean;
  /** This node's open `node.unwritable` incidents of the account, held in its memory (alerts/unwritable.ts). */
  nodeAlerts(account: string): Alert[];
}

/** Everything a route needs, made once per app and handed down: no module-level state. */
export interface ServiceContext {
  db: Database;
  config: ServiceConfig;
  clock: Clock;
  auth: TokenAuthenticator;
  /** Where every action says what it changed; devices' events and consoles' notices come from it (realtime/changes.ts). */
  changes: ChangePipeline;
  /** Sessions ended by sign-out or a user's change: their sockets are cut (realtime/session-ends.ts). */
  sessionEnds: SessionEnds;
  log: ServiceLog;
  /** The background jobs (jobs/), built, started and stopped by the app (app.ts). */
  jobs: JobsPort;
  /** This node among the service's nodes: readiness, draining, the bus between nodes (cluster/). */
  node: NodeState;
  /** The media screens' tokens were found to see of late; the hub forgets them (visibility/seen-media.ts). */
  seenMedia: SeenMedia;
}

/** The context, and the jobs `jobsOf` builds on it (the app's: jobs/service-jobs.ts). */
export function createContext<Jobs extends JobsPort>(
  db: Database,
  config: ServiceConfig,
  clock: Clock,
  log: ServiceLog,
  jobsOf: (ctx: ServiceContext) => Jobs,
): ServiceContext & { jobs: Jobs } {
  const node = new NodeState();
  const auth = new TokenAuthenticator(new TokenRepository(db), () => clock.now());
  auth.revokeThrough(node.bus);
  const ctx = {
    db,
    config,
    clock,
    log,
    auth,
    changes: new ChangePipeline(db),
    sessionEnds: new SessionEnds(node.bus),
    node,
    seenMedia: new SeenMedia(clock),
  } as ServiceContext & { jobs: Jobs };
  // The jobs act through the context that holds them.
  ctx.jobs = jobsOf(ctx);
  return ctx;
}
