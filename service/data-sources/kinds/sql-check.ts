import type { DataSourceKind } from '../../../src/shared/data-source';

/**
 * What the SQL kinds accept before anything connects: the source's URL, and a binding's query as
 * one reading statement. The checks are deliberately simple and lean towards refusing: the
 * database's read-only transaction and its one-statement protocol are the guards that hold, these
 * give the owner a clear message first.
 */

export type SqlKind = 'postgres' | 'mysql';

const SCHEMES: Record<SqlKind, readonly string[]> = {
  postgres: ['postgres:', 'postgresql:'],
  mysql: ['mysql:', 'mariadb:'],
};
export const DEFAULT_PORTS: Record<SqlKind, number> = { postgres: 5432, mysql: 3306 };
const EXAMPLES: Record<SqlKind, string> = {
  postgres: 'postgres://user@host:5432/database',
  mysql: 'mysql://user@host:3306/database',
};

/** How the connection is encrypted: none, encrypted unverified, or verified against the host name. */
export const SSL_MODES = ['disable', 'require', 'verify-full'] as const;
export type SslMode = (typeof SSL_MODES)[number];

export interface SqlTarget {
  /** The host as written (a name, or an IP address without brackets). */
  host: string;
  port: number;
  user: string;
  /** Null: the server's default (PostgreSQL: the user's name; MySQL: none). */
  database: string | null;
  ssl: SslMode;
}

function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** Reads a source's URL, or says what is wrong with it (the create and update validation). */
export function parseSqlUrl(kind: SqlKind, text: string): SqlTarget | string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `must be a URL such as ${EXAMPLES[kind]}`;
  }
  if (!SCHEMES[kind].includes(url.protocol)) {
    return `must start with ${SCHEMES[kind].map((scheme) => `${scheme}//`).join(' or ')}`;
  }
  // The password is the source's secret, stored apart and never answered; in the URL it would be shown.
  if (url.password !== '') return 'must not hold a password: put it in the secret';
  const user = decoded(url.username);
  if (!user) return `must name the user, as in ${EXAMPLES[kind]}`;
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (host === '') return `must name the host, as in ${EXAMPLES[kind]}`;
  const path = url.pathname.replace(/^\//, '');
  if (path.includes('/')) return `must name one database, as in ${EXAMPLES[kind]}`;
  const database = path === '' ? null : decoded(path);
  if (database === null && path !== '') return 'must have a well-formed database name';
  if (url.hash !== '') return 'must not have a #fragment';
  let ssl: SslMode = 'disable';
  for (const [name, value] of url.searchParams) {
    if (name !== 'sslmode') return `may only have the parameter sslmode, not "${name}"`;
    if (!(SSL_MODES as readonly string[]).includes(value)) {
      return `sslmode must be ${SSL_MODES.map((mode) => `"${mode}"`).join(', ')}`;
    }
    ssl = value as SslMode;
  }
  return { host, port: url.port === '' ? DEFAULT_PORTS[kind] : Number(url.port), user, database, ssl };
}

/**
 * Null when the URL is fine for the kind, else what is wrong: for the service's create and update.
 * It takes any kind, so a caller that has already set the HTTP kinds apart need not narrow it.
 */
export function checkSqlUrl(kind: DataSourceKind, url: string): string | null {
  if (kind !== 'postgres' && kind !== 'mysql') return `is not checked here: ${kind} is not a database kind`;
  const target = parseSqlUrl(kind, url);
  return typeof target === 'string' ? target : null;
}

/**
 * The query with its string literals, quoted names and comments blanked to spaces (same length),
 * so what is left is the statement's own words and punctuation; or what stops the reading.
 */
export function blankLiterals(kind: SqlKind, query: string): string | { error: string } {
  const out: string[] = [];
  let at = 0;
  const blank = (end: number) => {
    out.push(' '.repeat(end - at));
    at = end;
  };
  while (at < query.length) {
    const char = query[at] ?? '';
    const next = query[at + 1] ?? '';
    if (char === '-' && next === '-' && (kind === 'postgres' || /[\s]/.test(query[at + 2] ?? ' '))) {
      // MySQL reads `--` as a comment only before a space; elsewhere it is two minus signs.
      const end = query.indexOf('\n', at);
      blank(end < 0 ? query.length : end);
    } else if (char === '#' && kind === 'mysql') {
      const end = query.indexOf('\n', at);
      blank(end < 0 ? query.length : end);
    } else if (char === '/' && next === '*') {
      // MySQL runs the text of /*! ... */ and /*+ ... */; reading it as a comment would hide it.
      if (kind === 'mysql' && /[!+M]/.test(query[at + 2] ?? ''))
        return { error: 'must not use executable comments (/*! */)' };
      const end = blockCommentEnd(kind, query, at);
      if (end < 0) return { error: 'has a comment that is not closed' };
      blank(end);
    } else if (char === "'" || char === '"' || (char === '`' && kind === 'mysql')) {
      const backslashes =
        kind === 'mysql' ||
        (char === "'" && /[eE]/.test(query[at - 1] ?? '') && !/\w/.test(query[at - 2] ?? ''));
      const end = quotedEnd(query, at, char, backslashes);
      if (end < 0) return { error: 'has a quoted string or name that is not closed' };
      blank(end);
    } else if (char === '$' && kind === 'postgres' && !/\w/.test(query[at - 1] ?? '')) {
      const tag = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/.exec(query.slice(at))?.[0];
      if (tag) {
        const close = query.indexOf(tag, at + tag.length);
        if (close < 0) return { error: 'has a dollar-quoted string that is not closed' };
        blank(close + tag.length);
      } else {
        out.push(char);
        at += 1;
      }
    } else {
      out.push(char);
      at += 1;
    }
  }
  return out.join('');
}

/** Where a block comment opened at `start` ends (just past it), or -1; PostgreSQL's nest. */
function blockCommentEnd(kind: SqlKind, query: string, start: number): number {
  let depth = 0;
  let at = start;
  while (at < query.length) {
    if (query.startsWith('/*', at) && (kind === 'postgres' || depth === 0)) {
      depth += 1;
      at += 2;
    } else if (query.startsWith('*/', at)) {
      depth -= 1;
      at += 2;
      if (depth === 0) return at;
    } else {
      at += 1;
    }
  }
  return -1;
}

/** Where a quoted text opened at `start` ends (just past its closing quote), or -1. */
function quotedEnd(query: string, start: number, quote: string, backslashes: boolean): number {
  let at = start + 1;
  while (at < query.length) {
    const char = query[at];
    if (backslashes && char === '\\') {
      at += 2;
    } else if (char === quote) {
      // A doubled quote is the quote itself, inside the text.
      if (query[at + 1] === quote) at += 2;
      else return at + 1;
    } else {
      at += 1;
    }
  }
  return -1;
}

/** The words a statement may begin with: a source reads, and a cursor takes only these. */
const FIRST_WORDS: Record<SqlKind, readonly string[]> = {
  postgres: ['select', 'with', 'values', 'table'],
  mysql: ['select', 'with', 'values', 'table', 'show', 'describe', 'desc', 'explain'],
};

/**
 * The one statement a binding runs, without a closing `;`, or what is wrong with the query. More
 * than one statement is refused: a `;` followed by anything but blanks and comments.
 */
export function readSqlQuery(kind: SqlKind, query: string): { statement: string } | { error: string } {
  const code = blankLiterals(kind, query);
  if (typeof code !== 'string') return code;
  if (code.trim() === '') return { error: 'must not be empty: write one SELECT statement' };
  const semicolon = code.indexOf(';');
  let end = query.length;
  if (semicolon >= 0) {
    if (code.slice(semicolon + 1).trim() !== '')
      return { error: 'must be one statement: nothing may follow a ";"' };
    end = semicolon;
  }
  const first = /^[\s(]*([A-Za-z]+)/.exec(code)?.[1]?.toLowerCase() ?? '';
  if (!FIRST_WORDS[kind].includes(first)) {
    return {
      error: `must be a ${FIRST_WORDS[kind].map((word) => word.toUpperCase()).join(', ')} statement: a data source only reads`,
    };
  }
  // MySQL writes a file on the database's host for SELECT ... INTO OUTFILE, read-only transaction or not.
  if (kind === 'mysql' && /\binto\s+(outfile|dumpfile)\b/i.test(code))
    return { error: 'must not write a file (INTO OUTFILE)' };
  return { statement: query.slice(0, end).trimEnd() };
}

/** The kinds' `check`: one reading statement, and no range (only Prometheus has one). */
export function checkSqlQuery(kind: SqlKind, query: string, range: unknown): string | null {
  if (range) return 'takes no range: only a Prometheus source takes a range';
  const read = readSqlQuery(kind, query);
  return 'error' in read ? read.error : null;
}
