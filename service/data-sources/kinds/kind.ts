import type { DataSourceKind } from '../../../src/shared/data-source';
import type { HttpAllowPolicy } from '../../scripts/destinations';

/** What a query needs of its source: the saved fields, the secret, and where it may connect. */
export interface SourceConnection {
  kind: DataSourceKind;
  url: string;
  auth: 'none' | 'basic' | 'bearer';
  username: string | null;
  /** The password or token, never shown. */
  secret: string | null;
  headers: Record<string, string>;
  timeoutMs: number;
  /** The destination rule: the service's, widened to loopback and private when the source allows them. */
  policy: HttpAllowPolicy;
}

/** One query of a binding (or of the console's Test). */
export interface SourceQuery {
  /** PromQL, SQL, or a JMESPath expression over an HTTP kind's answer ('' for all of it). */
  query: string;
  /** A Prometheus range query; null for an instant one. */
  range: { seconds: number; step_seconds: number } | null;
  /** When the query runs: a range's end, a calendar's "now". */
  now: Date;
}

/**
 * A failure a source's owner can act on, its message shown as it is (on the flow's binding, the
 * source's last error and its runs): never the secret.
 */
export class SourceError extends Error {}

/** Runs one query against a source; the result is plain JSON, as the mapping reads it. */
export type RunQuery = (
  connection: SourceConnection,
  query: SourceQuery,
  signal: AbortSignal,
) => Promise<unknown>;

/** A query checked before it is saved: null when it is fine, else what is wrong. */
export type CheckQuery = (query: string, range: SourceQuery['range']) => string | null;

export interface SourceKind {
  run: RunQuery;
  check: CheckQuery;
}
