// CSV downloads (the plays of a screen, the fleet's plays and their totals: docs/api/commands.md),
// written for the spreadsheet that opens them, Excel above all, and safe there.
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Excel reads a file without a byte order mark as the system's code page (names with accents come
 * out garbled); with one, as UTF-8.
 */
const BOM = '\uFEFF';

/**
 * A cell that starts with one of these is a formula to a spreadsheet (`=HYPERLINK(...)`, `+1+1`,
 * `@SUM(...)`; tab and CR are skipped by some before they look). Names are anyone's text: such a
 * cell is prefixed with `'`, which makes it text (OWASP's advice on CSV injection).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvValue = string | number | null;

/**
 * RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. Text that a
 * spreadsheet would run as a formula is made text first; numbers are ours, never prefixed.
 */
export function csvField(value: CsvValue): string {
  if (value === null) return '';
  const text = typeof value === 'string' && FORMULA_START.test(value) ? `'${value}` : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A whole file: the byte order mark, a header line, a line per row, each ended by CRLF. */
export function csvTable<Row, Column extends keyof Row & string>(
  columns: readonly Column[],
  rows: readonly Row[],
): string {
  const lines = [
    columns.join(','),
    ...rows.map((row) => columns.map((column) => csvField(row[column] as CsvValue)).join(',')),
  ];
  return `${BOM}${lines.join('\r\n')}\r\n`;
}

/** Sends a CSV file as a download named `filename` (no quotes or path in it: ours are made so). */
export function sendCsv(reply: FastifyReply, filename: string, body: string): FastifyReply {
  // A string of a type other than JSON is sent as it is, past the route's JSON serializer.
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .send(body);
}

/**
 * What the Accept header says of `type`: its q, and how closely a range names it (2 exactly, 1
 * by its major type, 0 by the range of any type, -1 not at all), the closest range deciding.
 */
function weight(accept: string, type: string): { q: number; named: number } {
  const [major] = type.split('/');
  let found = { q: 0, named: -1 };
  for (const range of accept.split(',')) {
    const [media = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    const named = media === type ? 2 : media === `${major}/*` ? 1 : media === '*/*' ? 0 : -1;
    if (named < 0 || named < found.named) continue;
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const value = q === undefined ? 1 : Number(q.slice(2));
    found = { q: Number.isFinite(value) ? value : 0, named };
  }
  return found;
}

/**
 * CSV when the client names it (`text/csv`, or `text/` with a star) and wants it at least as
 * much as JSON, unless it names JSON just as much; any type, or no Accept header, gets JSON.
 */
export function wantsCsv(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  if (!accept) return false;
  const csv = weight(accept, 'text/csv');
  const json = weight(accept, 'application/json');
  if (csv.named < 1 || csv.q <= 0) return false;
  return csv.q > json.q || (csv.q === json.q && json.named < 2);
}

/** Whether a list route answers CSV: `format` wins, then the Accept header. */
export function answersCsv(request: FastifyRequest, format: 'json' | 'csv' | undefined): boolean {
  return format === 'csv' || (format === undefined && wantsCsv(request));
}
