import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { TokenScope } from '../../src/shared/token';
import type { StoredToken, TokenRepository } from '../repositories/tokens';

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
  | 'scripts:read';

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
];

export const SCOPE_GRANTS: Readonly<Record<TokenScope, ReadonlySet<Permission>>> = {
  full: new Set(ALL),
  readonly: new Set(['read', 'tokens:read']),
  affiliated: new Set(['read', 'devices:write', 'notifications:write', 'metrics:write']),
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

/**
 * Checks secrets against the stored hashes. Known tokens are cached by hash (and dropped when
 * deleted), so a request costs no query; `last_used_at` is written at most once a minute.
 */
export class TokenAuthenticator {
  private readonly cache = new Map<string, StoredToken>();
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly tokens: TokenRepository,
    private readonly now: () => Date,
  ) {}

  async authenticate(secret: string | null): Promise<StoredToken | null> {
    if (!secret) return null;
    const hash = hashSecret(secret);
    const token = this.cache.get(hash) ?? (await this.tokens.findByHash(hash));
    if (!token || !timingSafeEqual(Buffer.from(token.secret_hash, 'hex'), Buffer.from(hash, 'hex'))) {
      return null;
    }
    this.cache.set(hash, token);
    this.touch(token);
    return token;
  }

  forget(id: string): void {
    for (const [hash, token] of this.cache) if (token.id === id) this.cache.delete(hash);
    this.touched.delete(id);
  }

  private touch(token: StoredToken): void {
    const now = this.now();
    const last = this.touched.get(token.id) ?? 0;
    if (now.getTime() - last < TOUCH_INTERVAL_MS) return;
    this.touched.set(token.id, now.getTime());
    this.tokens.touch(token.id, now).catch(() => this.touched.delete(token.id));
  }
}
