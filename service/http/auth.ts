import type { BusTopic } from '../cluster/bus-messages';
import type { ClusterBus } from '../cluster/node-state';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { LRUCache } from 'lru-cache';
import { growingLru } from '../lru';
import type { TokenScope } from '../../src/shared/token';
import type { UserRole } from '../../src/shared/user';
import type { StoredToken, TokenRepository } from '../repositories/tokens';
import { RateLimited } from './errors';
import { KeyedLimiter, type Millis, type Rate } from './rate-limit';

/** What a route needs; each scope grants a fixed set (documented in docs/api.md). */
export type Permission =
  | 'read'
  | 'write'
  | 'delete'
  | 'tokens:read'
  | 'tokens:write'
  | 'devices:write'
  | 'notifications:write'
  | 'metrics:write'
  | 'scripts:read'
  /** Managing the people who sign in (routes/users.ts): an admin or a full token. */
  | 'users'
  /**
   * Listing the people who sign in: a signed-in user (any role) or a full token. Not the tokens
   * that live on screens and in scripts (readonly, affiliated): a login is a person's.
   */
  | 'users:read'
  /** Reading the audit trail (routes/audit.ts): an admin or a full token. */
  | 'audit';

const ALL: readonly Permission[] = [
  'read',
  'write',
  'delete',
  'tokens:read',
  'tokens:write',
  'devices:write',
  'notifications:write',
  'metrics:write',
  'scripts:read',
  'users',
  'users:read',
  'audit',
];

export const SCOPE_GRANTS: Readonly<Record<TokenScope, ReadonlySet<Permission>>> = {
  full: new Set(ALL),
  readonly: new Set(['read', 'tokens:read']),
  affiliated: new Set(['read', 'devices:write', 'notifications:write', 'metrics:write']),
};

const VIEWER: readonly Permission[] = [...SCOPE_GRANTS.readonly, 'users:read'];

/**
 * What a signed-in user may: an admin what a `full` token may; a viewer what a `readonly` token
 * may, and list the users (kept from `readonly` tokens, which live on kiosks: logins name people).
 * Editors and publishers may write too, each within its own part of the API only
 * (http/route-areas.ts), and editors read scripts' code; nobody else but admins does, since
 * scripts are where data-source keys were kept (docs/api/scripts.md).
 */
export const ROLE_GRANTS: Readonly<Record<UserRole, ReadonlySet<Permission>>> = {
  admin: SCOPE_GRANTS.full,
  editor: new Set([...VIEWER, 'write', 'delete', 'metrics:write', 'scripts:read']),
  publisher: new Set([...VIEWER, 'write', 'delete', 'notifications:write', 'devices:write']),
  viewer: new Set(VIEWER),
};

export function grants(scope: TokenScope, permission: Permission): boolean {
  return SCOPE_GRANTS[scope].has(permission);
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function newSecret(): string {
  return `wb_${randomBytes(32).toString('base64url')}`;
}

/**
 * The token of a request, as the original clients send it: `Bearer <t>`, `Token <t>`, or HTTP
 * Basic with the token as the user name and any password.
 */
export function secretFromHeader(header: string | undefined): string | null {
  if (!header) return null;
  const [kind, value] = header.trim().split(/\s+/, 2);
  if (!kind || !value) return null;
  switch (kind.toLowerCase()) {
    case 'bearer':
    case 'token':
      return value;
    case 'basic': {
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      const user = decoded.split(':', 1)[0];
      return user ? user : null;
    }
    default:
      return null;
  }
}

const TOUCH_INTERVAL_MS = 60_000;

export interface AuthLimits {
  /** Known tokens kept in memory, least recently used out first. */
  cacheSize: number;
  /**
   * How long a cached token is trusted without asking the store again: a token deleted by another
   * process on the same PostgreSQL database (this one drops its own deletions at once) is refused
   * after this long at most.
   */
  cacheTtlMs: number;
  /** Unknown secrets one client address may present: this many at once, then this many a second. */
  failures: Rate;
  /** Client addresses whose failures are counted at once (the oldest are forgotten first). */
  failureAddresses: number;
}

export const DEFAULT_AUTH_LIMITS: AuthLimits = {
  cacheSize: 10_000,
  cacheTtlMs: 10 * 60_000,
  failures: { burst: 20, perSecond: 20 / 60 },
  failureAddresses: 10_000,
};

/** Thrown instead of checking a secret when its address has presented too many unknown ones. */
export class AuthRateLimited extends RateLimited {
  constructor(retryAfterSeconds: number) {
    super(
      retryAfterSeconds,
      `too many requests with unknown tokens from this address; try again in ${retryAfterSeconds} s`,
    );
  }
}

/** The bus topic of a deleted token's id. */
const TOKEN_REVOKED = 'tokens.revoked' satisfies BusTopic;

/**
 * Checks secrets against the stored hashes. Known tokens are cached by hash in a bounded LRU with
 * expiry (and dropped when deleted), so a request costs no query; `last_used_at` is written at
 * most once a minute. Unknown secrets are counted per client address: past the limit, that
 * address gets `AuthRateLimited` without a query, except for tokens already cached (a device
 * behind the same address as a flood keeps working).
 */
export class TokenAuthenticator {
  private readonly cache: LRUCache<string, StoredToken>;
  private readonly touched: LRUCache<string, number>;
  /** Ids deleted since start (ids are never reused), so a lookup that raced a deletion is refused. */
  private readonly revoked: LRUCache<string, true>;
  private readonly failures: KeyedLimiter;
  private readonly revokedListeners = new Set<(id: string) => void>();
  /** Tells every node of a deletion (revokeThrough); null: this node alone. */
  private announce: ((id: string) => void) | null = null;

  constructor(
    private readonly tokens: TokenRepository,
    private readonly now: () => Date,
    limits: Partial<AuthLimits> = {},
    millis?: Millis,
  ) {
    const { cacheSize, cacheTtlMs, failures, failureAddresses } = { ...DEFAULT_AUTH_LIMITS, ...limits };
    // Ages read the clock at each look (ttlResolution 0): a call costs less than the hash did.
    const clock = { ttlResolution: 0, ...(millis ? { perf: { now: millis } } : {}) };
    this.cache = growingLru(cacheSize, { ttl: cacheTtlMs, ...clock });
    this.touched = growingLru(cacheSize);
    this.revoked = growingLru(cacheSize);
    this.failures = new KeyedLimiter(failures, failureAddresses, millis);
  }

  /**
   * The token of `secret`, or null. With `address` (the client's), unknown secrets count against
   * it, and past its limit this throws AuthRateLimited rather than asking the store.
   */
  async authenticate(secret: string | null, address?: string): Promise<StoredToken | null> {
    if (!secret) return null;
    const hash = hashSecret(secret);
    const cached = this.cache.get(hash);
    if (cached) {
      this.touch(cached);
      return cached;
    }
    const wait = address === undefined ? 0 : this.failures.blockedFor(address);
    if (wait > 0) throw new AuthRateLimited(wait);
    const token = await this.tokens.findByHash(hash);
    if (
      !token ||
      this.revoked.has(token.id) ||
      !timingSafeEqual(Buffer.from(token.secret_hash, 'hex'), Buffer.from(hash, 'hex'))
    ) {
      if (address !== undefined) this.failures.spend(address);
      return null;
    }
    // Set on a lookup only, so its expiry counts from the store's answer, however often it is used.
    this.cache.set(hash, token);
    this.touch(token);
    return token;
  }

  /** Whether the token `id` was deleted (while this service ran). */
  isRevoked(id: string): boolean {
    return this.revoked.has(id);
  }

  /** Calls `listener` with the id of every token deleted from now on; returns how to stop. */
  onRevoked(listener: (id: string) => void): () => void {
    this.revokedListeners.add(listener);
    return () => this.revokedListeners.delete(listener);
  }

  /**
   * Deletions go through `bus` from now on, so that every node of the service forgets a token
   * deleted on any of them (each node keeps its own cache).
   */
  revokeThrough(bus: ClusterBus): void {
    this.announce = (id) => bus.publish(TOKEN_REVOKED, id);
    bus.subscribe(TOKEN_REVOKED, (id) => this.forgetHere(id));
  }

  /** The token `id` was deleted: refused from now on, on every node, and whoever listens is told at once. */
  forget(id: string): void {
    if (this.announce) this.announce(id);
    else this.forgetHere(id);
  }

  /**
   * Forgets every known token: each is read from the store again at its next use. For a node that
   * could not hear the others for a while (realtime/cluster.ts): a deletion told meanwhile did not
   * reach it.
   */
  forgetKnown(): void {
    this.cache.clear();
  }

  private forgetHere(id: string): void {
    for (const [hash, token] of this.cache.entries()) if (token.id === id) this.cache.delete(hash);
    this.touched.delete(id);
    this.revoked.set(id, true);
    for (const listener of this.revokedListeners) listener(id);
  }

  private touch(token: StoredToken): void {
    const now = this.now();
    const last = this.touched.get(token.id) ?? 0;
    if (now.getTime() - last < TOUCH_INTERVAL_MS) return;
    this.touched.set(token.id, now.getTime());
    this.tokens.touch(token.id, now).catch(() => this.touched.delete(token.id));
  }
}
