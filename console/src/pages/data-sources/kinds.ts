import { HTTP_KINDS, type DataSourceKind } from '../../../../src/shared/data-source';

/**
 * What each kind of data source is called and asks for, in an operator's words: the form shows
 * the address field, its example and help, and the query box of the kind from here.
 */
export interface KindWords {
  label: string;
  /** One line under the kind's choice: what it connects to. */
  description: string;
  urlLabel: string;
  urlPlaceholder: string;
  urlHelp: string;
  /** The query box: its label, a one-line hint and an example. */
  queryLabel: string;
  queryHint: string;
  queryPlaceholder: string;
  /** A query is needed (PromQL, SQL); the others read the whole answer when it is empty. */
  queryRequired: boolean;
}

/** The query language of the HTTP kinds that are not Prometheus, said once for the operator. */
const PICK_HINT =
  'Optional: picks part of the answer with a path expression (JMESPath), such as data.items to keep only that list. Empty, the whole answer is used.';

export const KIND_WORDS: Record<DataSourceKind, KindWords> = {
  prometheus: {
    label: 'Prometheus',
    description: 'Numbers from a Prometheus server (or one that speaks its API)',
    urlLabel: 'Server address',
    urlPlaceholder: 'https://prometheus.example.com',
    urlHelp: 'The address of the server, without /api/v1: Wallboard adds the query path itself.',
    queryLabel: 'Query (PromQL)',
    queryHint: 'A PromQL expression, as in Prometheus’s own query page.',
    queryPlaceholder: 'sum(rate(http_requests_total[5m]))',
    queryRequired: true,
  },
  postgres: {
    label: 'PostgreSQL',
    description: 'Rows from a PostgreSQL database',
    urlLabel: 'Database address',
    urlPlaceholder: 'postgres://reader@db.example.com:5432/sales',
    urlHelp:
      'postgres://user@host:port/database. Put the password below, not in the address. Use a user that may only read.',
    queryLabel: 'Query (SQL)',
    queryHint: 'One SELECT statement; its rows (at most 1000) become the result.',
    queryPlaceholder: 'SELECT region, sum(total) AS total FROM orders GROUP BY region',
    queryRequired: true,
  },
  mysql: {
    label: 'MySQL or MariaDB',
    description: 'Rows from a MySQL or MariaDB database',
    urlLabel: 'Database address',
    urlPlaceholder: 'mysql://reader@db.example.com:3306/sales',
    urlHelp:
      'mysql://user@host:port/database. Put the password below, not in the address. Use a user that may only read.',
    queryLabel: 'Query (SQL)',
    queryHint: 'One SELECT statement; its rows (at most 1000) become the result.',
    queryPlaceholder: 'SELECT region, SUM(total) AS total FROM orders GROUP BY region',
    queryRequired: true,
  },
  json: {
    label: 'JSON over HTTP',
    description: 'An address that answers JSON (a REST API, a status page)',
    urlLabel: 'Address',
    urlPlaceholder: 'https://api.example.com/status.json',
    urlHelp: 'Wallboard asks it with GET and reads the JSON it answers.',
    queryLabel: 'Pick part of the answer',
    queryHint: PICK_HINT,
    queryPlaceholder: 'data.items',
    queryRequired: false,
  },
  csv: {
    label: 'CSV file',
    description: 'A spreadsheet published as CSV at an address',
    urlLabel: 'Address of the CSV file',
    urlPlaceholder: 'https://example.com/published/sales.csv',
    urlHelp: 'The first line names the columns; each other line becomes a row (at most 1000).',
    queryLabel: 'Pick part of the rows',
    queryHint: PICK_HINT,
    queryPlaceholder: "[?region == 'North']",
    queryRequired: false,
  },
  rss: {
    label: 'RSS or Atom feed',
    description: 'The latest items of a news feed or blog',
    urlLabel: 'Feed address',
    urlPlaceholder: 'https://example.com/news/feed.xml',
    urlHelp: 'The result is the feed’s title and its items, each with title, link, published and summary.',
    queryLabel: 'Pick part of the feed',
    queryHint: PICK_HINT,
    queryPlaceholder: 'items[:5]',
    queryRequired: false,
  },
  ical: {
    label: 'Calendar (iCalendar)',
    description: 'Meetings or events from a calendar’s .ics address',
    urlLabel: 'Calendar address (.ics)',
    urlPlaceholder: 'https://calendar.example.com/rooms/blue.ics',
    urlHelp:
      'The calendar’s secret or public iCal address. The result has now (the event under way), next and events.',
    queryLabel: 'Pick part of the calendar',
    queryHint: PICK_HINT,
    queryPlaceholder: 'next[:3]',
    queryRequired: false,
  },
};

export const isHttpKind = (kind: DataSourceKind): boolean => HTTP_KINDS.includes(kind);

/** What the form shows for a kind: HTTP kinds sign in and send headers; databases only take a password. */
export interface KindFields {
  auth: boolean;
  headers: boolean;
  /** The secret's label: a database's password, or the HTTP sign-in's password or token. */
  secretLabel: string | null;
  range: boolean;
}

export function kindFields(kind: DataSourceKind, auth: 'none' | 'basic' | 'bearer'): KindFields {
  if (!isHttpKind(kind)) return { auth: false, headers: false, secretLabel: 'Password', range: false };
  const secretLabel = auth === 'basic' ? 'Password' : auth === 'bearer' ? 'Token' : null;
  return { auth: true, headers: true, secretLabel, range: kind === 'prometheus' };
}

/** What a mapping reads, per kind: shown beside the expressions so the operator knows where to point. */
export const RESULT_SHAPE: Record<DataSourceKind, string> = {
  prometheus:
    'A list of series: [{labels, value, time}] (a range query: [{labels, values, times}]). The first value is [0].value.',
  postgres: 'A list of rows, each with its columns by name: [0].total is the first row’s total.',
  mysql: 'A list of rows, each with its columns by name: [0].total is the first row’s total.',
  json: 'The JSON answer (or the part picked): status.open reads the field open inside status.',
  csv: 'A list of rows, each with its columns by name: [0].Sales is the first row’s Sales column.',
  rss: '{title, items: [{title, link, published, summary}]}: items[0].title is the newest item’s title.',
  ical: '{now, next, events}, each event with summary, location, start, end: now.summary, next[0].start.',
};
