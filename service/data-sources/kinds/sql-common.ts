import { createHash } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import {
  DestinationRefusedError,
  checkUrlHost,
  checkedLookup,
  describeHttpAllow,
  type HttpAllowPolicy,
} from '../../scripts/destinations';
import { SourceError, type SourceConnection } from './kind';
import { parseSqlUrl, type SqlKind, type SqlTarget } from './sql-check';

/**
 * What the SQL kinds share at run time: JSON-safe values, the destination rule, the pools, the
 * deadline and the errors' wording.
 */

/** How long an unused pool keeps its connections: a source runs every few seconds to a day. */
export const POOL_IDLE_MS = 30_000;
/** The most connections one source holds: its bindings run one after another, a Test beside them. */
export const POOL_MAX = 2;
/**
 * How long past its timeout a query may take before the client drops the connection: the server
 * ends a statement at the timeout itself; this covers a server that no longer answers.
 */
export const CLIENT_GRACE_MS = 500;

/** A decimal text in its shortest form ("-0012.50" → "-12.5"), or null if it is not plain decimal. */
function canonicalDecimal(text: string): string | null {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) return null;
  const whole = (match[2] ?? '').replace(/^0+(?=\d)/, '') || '0';
  const fraction = (match[3] ?? '').replace(/0+$/, '');
  const digits = fraction ? `${whole}.${fraction}` : whole;
  return digits === '0' || match[1] !== '-' ? digits : `-${digits}`;
}

/**
 * A database's exact number (bigint, numeric, decimal; read as text) as a JSON number when the
 * number says exactly the same value, else the text, so no digit is silently lost.
 */
export function exactNumber(text: string): number | string {
  const canonical = canonicalDecimal(text);
  if (canonical === null) return text;
  const number = Number(canonical);
  return Number.isFinite(number) && String(number) === canonical ? number : text;
}

/**
 * A value as JSON carries it: dates as ISO strings, bytes as base64, bigints as exactNumber does,
 * arrays and objects value by value; what JSON cannot say (undefined, functions) as null.
 */
export function jsonValue(value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'bigint') return exactNumber(value.toString());
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (Array.isArray(value)) return value.map(jsonValue);
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, jsonValue(item)]));
  }
  return null;
}

/** The address to connect to: the host resolved once and checked by the source's rule. */
export async function checkedAddress(host: string, policy: HttpAllowPolicy): Promise<string> {
  try {
    if (isIP(host)) {
      // An IP literal never reaches a lookup: it is judged here.
      checkUrlHost(policy, new URL(`http://${host.includes(':') ? `[${host}]` : host}`));
      return host;
    }
    const lookup = checkedLookup(policy);
    const addresses = await new Promise<LookupAddress[]>((resolve, reject) => {
      lookup(host, { all: true }, (error, found) => {
        if (error) reject(error);
        else resolve(found as unknown as LookupAddress[]);
      });
    });
    const first = addresses[0];
    if (!first) throw new SourceError(`${host} has no address`);
    return first.address;
  } catch (error) {
    if (error instanceof DestinationRefusedError) {
      // Its advice names the scripts' switch; a source is widened by its own setting.
      const what = error.message.split('; the service allows')[0] ?? error.message;
      throw new SourceError(
        `${what}; sources reach ${describeHttpAllow(policy)} (an admin may allow loopback and private addresses for a source)`,
      );
    }
    if (error instanceof SourceError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') throw new SourceError(`${host}: no such host`);
    throw new SourceError(`${host}: ${(error as Error).message}`);
  }
}

/**
 * The database's own message, as a SourceError, with the secret blanked should a driver or a
 * server ever echo it.
 */
export function sourceErrorOf(error: unknown, secret: string | null): SourceError {
  if (error instanceof SourceError) return error;
  let message = error instanceof Error ? error.message : String(error);
  if (message === '') message = (error as { code?: string }).code ?? 'the query failed';
  if (secret) message = message.split(secret).join('********');
  return new SourceError(message);
}

/** What makes a pool: the same URL, password, rule and checked address share one. */
export function poolKey(parts: readonly string[]): string {
  // The secret takes part only hashed, so the key is safe to keep and to show in a debugger.
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

export function policyKey(policy: HttpAllowPolicy): string {
  return describeHttpAllow(policy);
}

interface PoolEntry {
  pool: unknown;
  end: () => Promise<void>;
  users: number;
  idle: NodeJS.Timeout | null;
}

/**
 * The pools of the SQL sources, by key. A pool unused for POOL_IDLE_MS is ended and forgotten,
 * so a changed URL or password, or an address DNS no longer gives, leaves nothing open behind it.
 */
export class SqlPools {
  private readonly entries = new Map<string, PoolEntry>();

  async use<P, T>(
    key: string,
    create: () => { pool: P; end: () => Promise<void> },
    work: (pool: P) => Promise<T>,
  ): Promise<T> {
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { ...create(), users: 0, idle: null };
      this.entries.set(key, entry);
    }
    if (entry.idle) clearTimeout(entry.idle);
    entry.idle = null;
    entry.users += 1;
    try {
      return await work(entry.pool as P);
    } finally {
      entry.users -= 1;
      if (entry.users === 0 && this.entries.get(key) === entry) {
        const idle = entry;
        idle.idle = setTimeout(() => {
          if (idle.users > 0 || this.entries.get(key) !== idle) return;
          this.entries.delete(key);
          void idle.end().catch(() => undefined);
        }, POOL_IDLE_MS);
        // A waiting pool never keeps the process alive.
        idle.idle.unref();
      }
    }
  }

  get size(): number {
    return this.entries.size;
  }

  async closeAll(): Promise<void> {
    const entries = [...this.entries.values()];
    this.entries.clear();
    for (const entry of entries) if (entry.idle) clearTimeout(entry.idle);
    await Promise.all(entries.map((entry) => entry.end().catch(() => undefined)));
  }
}

/**
 * The run's deadline: the caller's signal, or the timeout and its grace passed, whichever is
 * first. The whole run counts (lookup, connection, statements), not the statement alone.
 */
export function deadlineOf(signal: AbortSignal, timeoutMs: number): AbortSignal {
  return AbortSignal.any([signal, AbortSignal.timeout(timeoutMs + CLIENT_GRACE_MS)]);
}

/** Why a deadline ended the run, as the owner reads it. */
export function abortError(signal: AbortSignal, timeoutMs: number): SourceError {
  const reason: unknown = signal.reason;
  if (reason instanceof DOMException && reason.name === 'TimeoutError') {
    return new SourceError(`timed out after ${timeoutMs / 1000} s`);
  }
  return new SourceError('the query was cancelled');
}

/** `work`, or a SourceError as soon as the deadline passes (after `onAbort` has dropped the work). */
export async function racing<T>(
  work: Promise<T>,
  deadline: AbortSignal,
  timeoutMs: number,
  onAbort: () => void,
): Promise<T> {
  if (deadline.aborted) {
    onAbort();
    work.catch(() => undefined);
    throw abortError(deadline, timeoutMs);
  }
  let stop: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    stop = () => {
      onAbort();
      reject(abortError(deadline, timeoutMs));
    };
    deadline.addEventListener('abort', stop, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    if (stop) deadline.removeEventListener('abort', stop);
    // The loser's rejection is expected and handled here.
    work.catch(() => undefined);
    aborted.catch(() => undefined);
  }
}

/** What a run of either kind starts from: where it goes, by when, at which checked address, in which pool. */
export interface SqlRun {
  target: SqlTarget;
  deadline: AbortSignal;
  address: string;
  /** The pool's key: one pool per URL, secret, destination rule, address and timeout. */
  key: string;
  timeoutMs: number;
}

/** Reads the URL, starts the deadline and checks the address against the destination rule. */
export async function prepareRun(
  kind: SqlKind,
  connection: SourceConnection,
  signal: AbortSignal,
): Promise<SqlRun> {
  const target = parseSqlUrl(kind, connection.url);
  if (typeof target === 'string') throw new SourceError(`the URL ${target}`);
  const { timeoutMs } = connection;
  const deadline = deadlineOf(signal, timeoutMs);
  const address = await racing(
    checkedAddress(target.host, connection.policy),
    deadline,
    timeoutMs,
    () => undefined,
  );
  const key = poolKey([
    kind,
    connection.url,
    connection.secret ?? '',
    policyKey(connection.policy),
    address,
    String(timeoutMs),
  ]);
  return { target, deadline, address, key, timeoutMs };
}
