// The audit page's logic apart from React (docs/audit.md): what it asks the service, and how an
// entry reads to someone who does not read JSON.
import type { AuditEntry } from '../../../../src/shared/audit';

/** What the page filters by: a kind of resource, who, and a range of days (`YYYY-MM-DD`, inclusive). */
export interface AuditFilters {
  resource: string | null;
  who: string;
  first: string;
  last: string;
}

/** The kinds of things recorded, as people call them; anything else shows its own name. */
export const RESOURCE_LABELS: Readonly<Record<string, string>> = {
  session: 'Session',
  boards: 'Board',
  widgets: 'Widget',
  flows: 'Flow',
  channels: 'Channel',
  playlists: 'Playlist',
  devices: 'Screen',
  groups: 'Group',
  media: 'Medium',
  scripts: 'Script',
  script_secrets: 'Script secret',
  users: 'User',
  tokens: 'Token',
  alert_destinations: 'Alert destination',
  alert_rules: 'Alert rule',
  alert_rule_destinations: "Alert rule's destination",
  overrides: 'Emergency override',
  cap_feeds: 'CAP feed',
  data_sources: 'Data source',
  data_bindings: 'Data binding',
  notifications: 'Notification',
  commands: 'Remote command',
  account_sso: 'Single sign-on',
};

export const resourceLabel = (resource: string): string => RESOURCE_LABELS[resource] ?? resource;

const ACTION_LABELS: Readonly<Record<string, string>> = {
  create: 'Created',
  update: 'Changed',
  delete: 'Deleted',
  'sign-in': 'Signed in',
  'sign-in-failed': 'Failed to sign in',
  'sign-out': 'Signed out',
};

export const actionLabel = (action: string): string => ACTION_LABELS[action] ?? action;

/** The start of a local day as an instant. */
const startOf = (day: string): Date => new Date(`${day}T00:00:00`);

/** The query string of the filters (the browser's days as instants), with `extra` added. */
export function auditSearch(filters: AuditFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  if (filters.resource) params.set('resource', filters.resource);
  if (filters.who.trim()) params.set('actor', filters.who.trim());
  if (filters.first) params.set('since', startOf(filters.first).toISOString());
  if (filters.last) {
    const next = startOf(filters.last);
    next.setDate(next.getDate() + 1);
    params.set('until', next.toISOString());
  }
  for (const [name, value] of Object.entries(extra)) params.set(name, value);
  return params.toString();
}

/** The most one export holds (the service's own most). */
export const EXPORT_LIMIT = '10000';

/** An export's address: a plain link, sent with the session's cookie, saved under the service's name. */
export function exportHref(filters: AuditFilters, format: 'csv' | 'json'): string {
  return `/audit?${auditSearch(filters, { format, limit: EXPORT_LIMIT })}`;
}

/** The name of what an entry is about, when its row has one (`Board "Lobby"`). */
export function subjectOf(entry: AuditEntry): string {
  const row = entry.after ?? entry.before ?? {};
  const named = ['name', 'title', 'login', 'tag']
    .map((key) => row[key])
    .find((value) => typeof value === 'string');
  const label = resourceLabel(entry.resource);
  // A session's entry names its user as its actor already.
  if (entry.resource === 'session') return label;
  if (typeof named === 'string' && named) return `${label} “${named}”`;
  return entry.resource_id ? `${label} ${entry.resource_id}` : label;
}

/** A value as a sentence-like text: no quotes, no braces where words do. */
export function shown(value: unknown): string {
  if (value === undefined || value === null || value === '') return '(none)';
  if (value === '***') return '(secret, hidden)';
  if (value === '*** (changed)') return '(secret, changed)';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (Array.isArray(value) && value.length === 0) return '(none)';
  if (Array.isArray(value) && value.every((item) => typeof item !== 'object' || item === null)) {
    return value.map(shown).join(', ');
  }
  if (typeof value === 'object' && Object.keys(value).length === 0) return '(none)';
  return JSON.stringify(value, null, 1);
}

/** `target_group_id` as "Target group id". */
export const fieldLabel = (field: string): string => {
  const words = field.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export interface FieldRow {
  field: string;
  before: string;
  after: string;
  changed: boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A row's values by their path: an object's fields, and a list's items of objects, one path each
 * (`Settings › Theme`, `Items › 2 › Duration`), so that a reader sees which setting changed
 * rather than two blocks of JSON; lists of plain values stay one value.
 */
function leaves(value: unknown, path: readonly string[], into: Map<string, unknown>): Map<string, unknown> {
  if (isRecord(value) && Object.keys(value).length > 0) {
    for (const [key, inner] of Object.entries(value)) leaves(inner, [...path, fieldLabel(key)], into);
  } else if (Array.isArray(value) && value.some((item) => typeof item === 'object' && item !== null)) {
    value.forEach((item, index) => leaves(item, [...path, String(index + 1)], into));
  } else if (path.length > 0) {
    into.set(path.join(' › '), value);
  }
  return into;
}

/**
 * The fields of an entry, one row each, nested settings by their path: for a change the fields
 * that changed first, then the others; a creation has only an after, a deletion only a before.
 */
export function fieldRows(entry: AuditEntry): FieldRow[] {
  const before = leaves(entry.before ?? {}, [], new Map());
  const after = leaves(entry.after ?? {}, [], new Map());
  const both = entry.before !== null && entry.after !== null;
  const rows = [...new Set([...before.keys(), ...after.keys()])].map((field) => ({
    field,
    before: entry.before ? shown(before.get(field)) : '',
    after: entry.after ? shown(after.get(field)) : '',
    changed: both && JSON.stringify(before.get(field)) !== JSON.stringify(after.get(field)),
  }));
  return [...rows.filter((row) => row.changed), ...rows.filter((row) => !row.changed)];
}
