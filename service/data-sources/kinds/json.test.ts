import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionTo, MIME, startHttpFixtures, type HttpFixtures } from '../test-servers/http-fixtures';
import { jsonKind } from './json';
import { SourceError } from './kind';

let server: HttpFixtures;
beforeAll(async () => {
  server = await startHttpFixtures();
});
afterAll(async () => {
  await server.stop();
});

const signal = new AbortController().signal;
const now = new Date('2026-03-02T10:00:00Z');
const body = {
  station: 'Oslo',
  readings: [
    { sensor: 'a', temperature: 4.5, ok: true },
    { sensor: 'b', temperature: -1, ok: false },
  ],
};

describe('a JSON source', () => {
  it('answers the parsed body when the query is empty', async () => {
    const url = server.serve('/weather', { type: MIME.json, body: JSON.stringify(body) });
    await expect(jsonKind.run(connectionTo(url), { query: '', range: null, now }, signal)).resolves.toEqual(
      body,
    );
    expect(server.requests.at(-1)?.headers.accept).toBe('application/json');
  });

  it('applies the query as JMESPath to the body', async () => {
    const url = server.serve('/weather-query', { type: MIME.json, body: JSON.stringify(body) });
    const query = { query: 'readings[?ok].{name: sensor, t: temperature}', range: null, now };
    await expect(jsonKind.run(connectionTo(url), query, signal)).resolves.toEqual([{ name: 'a', t: 4.5 }]);
  });

  it('refuses an answer that is not JSON', async () => {
    const url = server.serve('/html', { type: 'text/html', body: '<!doctype html><p>login</p>' });
    const run = jsonKind.run(connectionTo(url), { query: '', range: null, now }, signal);
    await expect(run).rejects.toThrow(SourceError);
    await expect(run).rejects.toThrow(/^the answer is not JSON: /);
  });

  it('turns a failing expression into a SourceError', async () => {
    const url = server.serve('/weather-bad', { type: MIME.json, body: JSON.stringify(body) });
    const run = jsonKind.run(connectionTo(url), { query: 'abs(station)', range: null, now }, signal);
    await expect(run).rejects.toThrow(/^the JMESPath expression failed: /);
  });
});

describe('check of a JSON source', () => {
  it('takes an empty query and a valid expression', () => {
    expect(jsonKind.check('', null)).toBeNull();
    expect(jsonKind.check('items[0].value', null)).toBeNull();
  });

  it("answers the parser's message for an invalid expression", () => {
    expect(jsonKind.check('items[0', null)).toMatch(/^the JMESPath expression is not valid: .+/);
    expect(jsonKind.check('a.b.', null)).toMatch(/^the JMESPath expression is not valid: /);
  });

  it('refuses a range', () => {
    expect(jsonKind.check('', { seconds: 60, step_seconds: 1 })).toBe(
      'only a Prometheus source takes a range',
    );
  });
});
