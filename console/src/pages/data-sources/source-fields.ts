import type {
  DataSource,
  DataSourceCreate,
  DataSourceKind,
  DataSourceUpdate,
} from '../../../../src/shared/data-source';
import { isHttpKind, kindFields } from './kinds';

/** One header as the form lists it: a row of the key/value editor. */
export interface HeaderRow {
  name: string;
  value: string;
}

/**
 * The source's form as typed. The secret is write-only: the form never holds the one set, only
 * what is typed to replace it (`secret`) or that it is to be removed (`removeSecret`).
 */
export interface SourceValues {
  name: string;
  kind: DataSourceKind;
  url: string;
  auth: 'none' | 'basic' | 'bearer';
  username: string;
  secret: string;
  removeSecret: boolean;
  headers: HeaderRow[];
  interval_seconds: number | string;
  timeout_seconds: number | string;
  allow_private: boolean;
}

export const NEW_SOURCE: SourceValues = {
  name: '',
  kind: 'prometheus',
  url: '',
  auth: 'none',
  username: '',
  secret: '',
  removeSecret: false,
  headers: [],
  interval_seconds: 60,
  timeout_seconds: 10,
  allow_private: false,
};

export function valuesOf(source: DataSource): SourceValues {
  return {
    name: source.name,
    kind: source.kind,
    url: source.url,
    auth: source.auth,
    username: source.username ?? '',
    secret: '',
    removeSecret: false,
    headers: Object.entries(source.headers).map(([name, value]) => ({ name, value })),
    interval_seconds: source.interval_seconds,
    timeout_seconds: source.timeout_seconds,
    allow_private: source.allow_private,
  };
}

/** The rows as the API's record; a row left blank is no header. A name typed twice keeps its last value. */
export function headersOf(rows: readonly HeaderRow[]): Record<string, string> {
  return Object.fromEntries(
    rows.filter((row) => row.name.trim() || row.value.trim()).map((row) => [row.name.trim(), row.value]),
  );
}

/** What the fields of the kind leave: the username only for basic sign-in, headers only over HTTP. */
function fieldsOf(values: SourceValues) {
  const http = isHttpKind(values.kind);
  const auth = http ? values.auth : 'none';
  return {
    name: values.name,
    url: values.url.trim(),
    auth,
    username: auth === 'basic' ? values.username : null,
    headers: http ? headersOf(values.headers) : {},
    // A number input left empty sends '' which the schema refuses with its message.
    interval_seconds: values.interval_seconds as number,
    timeout_seconds: values.timeout_seconds as number,
    allow_private: values.allow_private,
  };
}

/** Whether the kind, signed in as chosen, uses a secret at all. */
const usesSecret = (values: SourceValues): boolean =>
  kindFields(values.kind, isHttpKind(values.kind) ? values.auth : 'none').secretLabel !== null;

export function createBody(values: SourceValues): DataSourceCreate {
  return {
    ...fieldsOf(values),
    kind: values.kind,
    secret: usesSecret(values) && values.secret !== '' ? values.secret : null,
  };
}

/**
 * What a PATCH sends: only the fields changed from `source`, and the secret in one of three
 * states: typed, it replaces the one set; removed (or no longer used by the sign-in chosen, so
 * that none is left behind), `null`; otherwise absent, which keeps it.
 */
export function updateBody(source: DataSource, values: SourceValues): DataSourceUpdate {
  const next = fieldsOf({ ...values, kind: source.kind });
  const body: DataSourceUpdate = {};
  if (next.name !== source.name) body.name = next.name;
  if (next.url !== source.url) body.url = next.url;
  if (next.auth !== source.auth) body.auth = next.auth;
  if (next.username !== source.username) body.username = next.username;
  if (JSON.stringify(next.headers) !== JSON.stringify(source.headers)) body.headers = next.headers;
  if (next.interval_seconds !== source.interval_seconds) body.interval_seconds = next.interval_seconds;
  if (next.timeout_seconds !== source.timeout_seconds) body.timeout_seconds = next.timeout_seconds;
  if (next.allow_private !== source.allow_private) body.allow_private = next.allow_private;
  const uses = usesSecret({ ...values, kind: source.kind });
  if (uses && !values.removeSecret && values.secret !== '') body.secret = values.secret;
  else if (source.has_secret && (values.removeSecret || !uses)) body.secret = null;
  return body;
}

/** "every 5 minutes", "every 90 seconds": an interval in words. */
export function durationWords(seconds: number): string {
  const units: [number, string][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, unit] of units) {
    if (seconds >= size && seconds % size === 0) {
      const count = seconds / size;
      return count === 1 ? `1 ${unit}` : `${count} ${unit}s`;
    }
  }
  return seconds === 1 ? '1 second' : `${seconds} seconds`;
}
