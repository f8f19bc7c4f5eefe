import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOURCE_ROWS_MAX } from '../../../src/shared/data-source';
import { connectionTo, MIME, startHttpFixtures, type HttpFixtures } from '../test-servers/http-fixtures';
import { csvKind, parseCsv } from './csv';

let server: HttpFixtures;
beforeAll(async () => {
  server = await startHttpFixtures();
});
afterAll(async () => {
  await server.stop();
});

const signal = new AbortController().signal;
const now = new Date('2026-03-02T10:00:00Z');
const run = (url: string, query = '') => csvKind.run(connectionTo(url), { query, range: null, now }, signal);

// As a spreadsheet publishes it: CRLF, quoted cells with commas and quotes, a BOM.
const SHEET =
  '\uFEFFcity,temperature,code,note,\r\n' +
  'Oslo,4.5,007,"cold, windy",x\r\n' +
  'Rome,-1e1,12,"says ""ciao""",\r\n' +
  'Lima,,0.5,,\r\n';

describe('a CSV source', () => {
  it('answers one object a row, keyed by the first row, numbers as numbers', async () => {
    const url = server.serve('/sheet.csv', { type: MIME.csv, body: SHEET });
    await expect(run(url)).resolves.toEqual([
      { city: 'Oslo', temperature: 4.5, code: '007', note: 'cold, windy', column_5: 'x' },
      { city: 'Rome', temperature: -10, code: 12, note: 'says "ciao"', column_5: null },
      { city: 'Lima', temperature: null, code: 0.5, note: null, column_5: null },
    ]);
  });

  it('applies the query as JMESPath to the rows', async () => {
    const url = server.serve('/sheet-query.csv', { type: MIME.csv, body: SHEET });
    await expect(run(url, '[?temperature > `0`].city')).resolves.toEqual(['Oslo']);
  });

  it(`keeps the first ${SOURCE_ROWS_MAX} rows of a longer answer`, async () => {
    const lines = ['n,square', ...Array.from({ length: SOURCE_ROWS_MAX + 500 }, (_, n) => `${n},${n * n}`)];
    const url = server.serve('/long.csv', { type: MIME.csv, body: lines.join('\n') });
    const rows = (await run(url)) as { n: number }[];
    expect(rows).toHaveLength(SOURCE_ROWS_MAX);
    expect(rows.at(-1)).toEqual({ n: SOURCE_ROWS_MAX - 1, square: (SOURCE_ROWS_MAX - 1) ** 2 });
  });
});

describe('parseCsv', () => {
  it('reads a semicolon or tab file by its header row', () => {
    expect(parseCsv('a;b\n1,5;x\n')).toEqual([{ a: '1,5', b: 'x' }]);
    expect(parseCsv('a\tb\n1\t2\n')).toEqual([{ a: 1, b: 2 }]);
  });

  it('names repeated columns apart and pads short rows', () => {
    expect(parseCsv('v,v,v\n1\n')).toEqual([{ v: 1, v_2: null, v_3: null }]);
  });

  it('keeps text that only looks numeric in part', () => {
    expect(parseCsv('a,b,c,d\n1.2.3, 12 ,0x10,Infinity\n')).toEqual([
      { a: '1.2.3', b: 12, c: '0x10', d: 'Infinity' },
    ]);
  });

  it('answers no rows for an empty answer or a header alone', () => {
    expect(parseCsv('')).toEqual([]);
    expect(parseCsv('a,b\n')).toEqual([]);
  });

  it('refuses text that is not CSV', () => {
    expect(() => parseCsv('a,b\n"open,1\n')).toThrow(/^the answer is not CSV: /);
  });
});
