import type { DataSourceKind } from '../../src/shared/data-source';
import type { ServiceConfig } from '../context';
import type { HttpAllowPolicy } from '../scripts/destinations';
import { invalid } from '../domain/errors';
import type { StoredSource } from '../repositories/data-sources';
import type { SourceConnection } from './kinds/kind';
import { checkSqlUrl } from './kinds/sql-kinds';

/**
 * Where a source may connect: the scripts' rule (`--scripts-http-allow`: public addresses, and
 * what the service lists), widened to loopback and private addresses for a source an admin
 * switched to `allow_private`, unless the service forbids it (`--no-private-data-sources`).
 */
/**
 * The widened rule of each base rule, made once: the HTTP library keeps one connection pool per
 * rule object, so a new object per query would open new connections every time.
 */
const widenedRules = new WeakMap<HttpAllowPolicy, HttpAllowPolicy>();

function widened(base: HttpAllowPolicy): HttpAllowPolicy {
  let rule = widenedRules.get(base);
  if (!rule) {
    rule = Object.freeze({ ...base, loopback: true, private: true });
    widenedRules.set(base, rule);
  }
  return rule;
}

export function connectionOf(
  source: StoredSource,
  config: Pick<ServiceConfig, 'scriptsHttpAllow' | 'privateDataSources'>,
): SourceConnection {
  const base = config.scriptsHttpAllow;
  const mayReachPrivate = source.allow_private && config.privateDataSources;
  return {
    kind: source.kind,
    url: source.url,
    auth: source.auth,
    username: source.username,
    secret: source.secret,
    headers: source.headers,
    timeoutMs: source.timeout_seconds * 1000,
    policy: mayReachPrivate ? widened(base) : base,
  };
}

/** The URL's fault for its kind, or null: http(s) with no password for the HTTP kinds, the databases' own form otherwise. */
export function urlError(kind: DataSourceKind, url: string): string | null {
  if (kind === 'postgres' || kind === 'mysql') return checkSqlUrl(kind, url);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be a URL, such as https://example.com/data.json';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must be an http or https URL';
  if (parsed.username !== '' || parsed.password !== '') {
    return 'must not hold a user name or password: give them as auth and secret, which are never shown';
  }
  return null;
}

/** Refuses a source the service would not let connect as asked: a 400 naming the field. */
export function checkSource(
  source: { kind: DataSourceKind; url: string; allow_private: boolean },
  config: Pick<ServiceConfig, 'privateDataSources'>,
): void {
  const url = urlError(source.kind, source.url);
  if (url !== null) throw invalid(`url ${url}`, [{ path: 'url', message: url }]);
  if (source.allow_private && !config.privateDataSources) {
    const message = 'this service lets no data source reach loopback or private addresses';
    throw invalid(`allow_private: ${message}`, [{ path: 'allow_private', message }]);
  }
}
