import { describe, expect, it } from 'vitest';
import {
  dataSourceCreateSchema,
  dataSourceUpdateSchema,
  type DataSource,
} from '../../../../src/shared/data-source';
import { kindFields, KIND_WORDS } from './kinds';
import { createBody, durationWords, headersOf, NEW_SOURCE, updateBody, valuesOf } from './source-fields';
import { deletionWords, feedsWords, lastRunWords } from './words';

const saved: DataSource = {
  id: 's1',
  name: 'Status API',
  kind: 'json',
  url: 'https://api.example.com/status.json',
  auth: 'bearer',
  username: null,
  has_secret: true,
  headers: { Accept: 'application/json' },
  interval_seconds: 60,
  timeout_seconds: 10,
  allow_private: false,
  created_at: '2026-11-27T08:00:00.000Z',
  last_run_at: null,
  last_ok_at: null,
  last_error: null,
  bindings: 0,
};

describe('what a kind of source shows', () => {
  it('asks HTTP kinds how to sign in and for headers; a database only for its password', () => {
    expect(kindFields('json', 'none')).toEqual({
      auth: true,
      headers: true,
      secretLabel: null,
      range: false,
    });
    expect(kindFields('rss', 'basic').secretLabel).toBe('Password');
    expect(kindFields('ical', 'bearer').secretLabel).toBe('Token');
    expect(kindFields('postgres', 'none')).toEqual({
      auth: false,
      headers: false,
      secretLabel: 'Password',
      range: false,
    });
    expect(kindFields('mysql', 'bearer').auth).toBe(false);
  });

  it('offers a time range for Prometheus alone, and a query is required only where one must be written', () => {
    expect(kindFields('prometheus', 'none').range).toBe(true);
    expect(kindFields('csv', 'none').range).toBe(false);
    expect(KIND_WORDS.prometheus.queryRequired).toBe(true);
    expect(KIND_WORDS.postgres.queryLabel).toBe('Query (SQL)');
    expect(KIND_WORDS.json.queryRequired).toBe(false);
    // Every kind has an example address and a hint in words.
    for (const words of Object.values(KIND_WORDS)) {
      expect(words.urlPlaceholder).toMatch(/^(https|postgres|mysql):\/\//);
      expect(words.queryHint.length).toBeGreaterThan(10);
    }
  });
});

describe('a new source', () => {
  it('sends what the service takes, the secret only where the sign-in uses one', () => {
    const body = createBody({
      ...NEW_SOURCE,
      name: 'Sales',
      kind: 'postgres',
      url: ' postgres://reader@db:5432/sales ',
      auth: 'basic',
      username: 'ignored',
      secret: 'hunter2',
      headers: [{ name: 'X-Ignored', value: '1' }],
    });
    expect(body).toMatchObject({
      kind: 'postgres',
      url: 'postgres://reader@db:5432/sales',
      auth: 'none',
      username: null,
      headers: {},
      secret: 'hunter2',
    });
    expect(dataSourceCreateSchema.safeParse(body).success).toBe(true);
    // A JSON source signed in by nothing sends no secret, whatever was typed before switching.
    expect(createBody({ ...NEW_SOURCE, kind: 'json', auth: 'none', secret: 'typed' }).secret).toBeNull();
  });

  it('keeps filled header rows, drops blank ones', () => {
    expect(
      headersOf([
        { name: ' Accept ', value: 'text/csv' },
        { name: '', value: '' },
      ]),
    ).toEqual({ Accept: 'text/csv' });
  });
});

describe('the secret’s three states in a PATCH', () => {
  it('left empty, it is kept: absent from the body, as is every field not changed', () => {
    expect(updateBody(saved, valuesOf(saved))).toEqual({});
  });

  it('typed, it replaces the one set', () => {
    expect(updateBody(saved, { ...valuesOf(saved), secret: 'new-token' })).toEqual({ secret: 'new-token' });
  });

  it('removed, it is sent as null; a sign-in that needs none also drops it', () => {
    expect(updateBody(saved, { ...valuesOf(saved), removeSecret: true })).toEqual({ secret: null });
    expect(updateBody(saved, { ...valuesOf(saved), auth: 'none' })).toEqual({ auth: 'none', secret: null });
    // Nothing to remove where none is set.
    expect(updateBody({ ...saved, has_secret: false }, { ...valuesOf(saved), auth: 'none' })).toEqual({
      auth: 'none',
    });
  });

  it('sends only what changed, in the shape the service checks', () => {
    const body = updateBody(saved, {
      ...valuesOf(saved),
      auth: 'basic',
      username: 'ada',
      headers: [],
      interval_seconds: 300,
    });
    expect(body).toEqual({ auth: 'basic', username: 'ada', headers: {}, interval_seconds: 300 });
    expect(dataSourceUpdateSchema.safeParse(body).success).toBe(true);
  });
});

describe('a source in words', () => {
  it('says intervals as people do', () => {
    expect(durationWords(60)).toBe('1 minute');
    expect(durationWords(300)).toBe('5 minutes');
    expect(durationWords(90)).toBe('90 seconds');
    expect(durationWords(7200)).toBe('2 hours');
    expect(durationWords(86_400)).toBe('1 day');
  });

  it('says when it last answered, or why not, and how many flows it feeds', () => {
    const now = Date.parse('2026-11-27T09:00:00.000Z');
    expect(lastRunWords(saved, now)).toEqual({ text: 'Not run yet', failed: false });
    const failed = { last_run_at: '2026-11-27T08:58:00.000Z', last_ok_at: null, last_error: 'timed out' };
    expect(lastRunWords(failed, now)).toEqual({ text: 'Failed 2 minutes ago: timed out', failed: true });
    expect(feedsWords(0)).toBe('No flow yet');
    expect(feedsWords(3)).toBe('3 flows');
    expect(deletionWords('Sales', ['hall', 'lobby'])).toBe(
      'Sales feeds these 2 flows. They stop being updated and keep the data they have now.',
    );
  });
});
