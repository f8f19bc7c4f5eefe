/**
 * CSV: the source's URL answers CSV (a published spreadsheet's CSV link works). What a mapping
 * reads: an array of rows, one object a row, keyed by the first row's column names:
 * `[{"city": "Oslo", "temperature": 4.5}, ...]`.
 *
 * - A cell that reads as a decimal number (`12`, `-3.5`, `1e3`) is a number; a number written
 *   with a leading zero (`007`, a code more than a quantity) stays text; an empty cell is null.
 * - A column with no name is `column_<n>` (n from 1); a repeated name gets `_2`, `_3`, ...
 * - The delimiter is the one of `,`, `;` and tab the header row has most of.
 * - At most SOURCE_ROWS_MAX rows are kept (the first ones).
 *
 * The binding's query, when not '', is a JMESPath expression over that array
 * (`[?temperature > \`0\`].city`).
 */
import { parse } from 'csv-parse/sync';
import { SOURCE_ROWS_MAX } from '../../../src/shared/data-source';
import { applyJmesPath, checkJmesPathQuery, fetchSource } from './http-fetch';
import { SourceError, type SourceConnection, type SourceKind, type SourceQuery } from './kind';

export type CsvCell = string | number | null;

const NUMBER = /^[-+]?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?$|^[-+]?0?\.\d+(?:[eE][-+]?\d+)?$/;

function cellOf(text: string): CsvCell {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (NUMBER.test(trimmed)) {
    const value = Number(trimmed);
    if (Number.isFinite(value)) return value;
  }
  return text;
}

function delimiterOf(text: string): string {
  const header = text.slice(0, text.search(/\r?\n|$/));
  const counts = [',', ';', '\t'].map((delimiter) => ({ delimiter, count: header.split(delimiter).length }));
  counts.sort((a, b) => b.count - a.count);
  return counts[0]?.count !== undefined && counts[0].count > 1 ? counts[0].delimiter : ',';
}

function columnNames(header: string[]): string[] {
  const seen = new Map<string, number>();
  return header.map((raw, index) => {
    const name = raw.trim() === '' ? `column_${index + 1}` : raw.trim();
    const times = (seen.get(name) ?? 0) + 1;
    seen.set(name, times);
    return times === 1 ? name : `${name}_${times}`;
  });
}

/** The rows of a CSV text as objects; exported for the tests and the bench. */
export function parseCsv(text: string): Record<string, CsvCell>[] {
  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      delimiter: delimiterOf(text),
      relax_column_count: true,
      skip_empty_lines: true,
      // The header and SOURCE_ROWS_MAX rows: the rest is not parsed at all.
      to: SOURCE_ROWS_MAX + 1,
    });
  } catch (error) {
    throw new SourceError(`the answer is not CSV: ${(error as Error).message}`);
  }
  const [header, ...rows] = records;
  if (!header) return [];
  const names = columnNames(header);
  return rows.map((row) => Object.fromEntries(names.map((name, index) => [name, cellOf(row[index] ?? '')])));
}

async function run(connection: SourceConnection, query: SourceQuery, signal: AbortSignal): Promise<unknown> {
  const fault = checkJmesPathQuery(query.query, query.range);
  if (fault !== null) throw new SourceError(fault);
  const { text } = await fetchSource(connection, signal, { accept: 'text/csv, text/plain;q=0.9, */*;q=0.1' });
  return applyJmesPath(parseCsv(text), query.query);
}

export const csvKind: SourceKind = { run, check: checkJmesPathQuery };
