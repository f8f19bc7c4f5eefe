import { csvKind } from './csv';
import { icalKind } from './ical';
import { jsonKind } from './json';
import type { SourceKind } from './kind';
import { prometheusKind } from './prometheus';
import { rssKind } from './rss';

/** The kinds read over HTTP(S), each a `run` and a `check` (the databases' kinds live elsewhere). */
export const HTTP_SOURCE_KINDS: Record<'prometheus' | 'json' | 'csv' | 'rss' | 'ical', SourceKind> = {
  prometheus: prometheusKind,
  json: jsonKind,
  csv: csvKind,
  rss: rssKind,
  ical: icalKind,
};
