import type { Database } from './db/database';
import { TokenAuthenticator } from './http/auth';
import { EventPublisher } from './realtime/publisher';
import { TokenRepository } from './repositories/tokens';
import { PUBLIC_ONLY, type HttpAllowPolicy } from './scripts/destinations';

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
  /** Where scripts' `wallboard/http` may connect (`--scripts-http-allow`); public addresses only by default. */
  scriptsHttpAllow: HttpAllowPolicy;
}

export const DEFAULT_CONFIG: ServiceConfig = {
  bodyLimit: 1024 * 1024,
  offlineAfterSeconds: 90,
  eventRetention: 10_000,
  eventRetentionBytes: 64 * 1024 * 1024,
  notificationRetention: 10_000,
  notificationRetentionDays: 30,
  scriptsHttpAllow: PUBLIC_ONLY,
};

export interface Clock {
  now(): Date;
}

/** Everything a route needs, made once per app and handed down: no module-level state. */
export interface ServiceContext {
  db: Database;
  config: ServiceConfig;
  clock: Clock;
  auth: TokenAuthenticator;
  events: EventPublisher;
}

export function createContext(db: Database, config: ServiceConfig, clock: Clock): ServiceContext {
  return {
    db,
    config,
    clock,
    auth: new TokenAuthenticator(new TokenRepository(db), () => clock.now()),
    events: new EventPublisher(db),
  };
}
