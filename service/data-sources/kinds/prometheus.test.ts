import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_ONLY } from '../../scripts/destinations';
import { connectionTo, startHttpFixtures, type HttpFixtures } from '../test-servers/http-fixtures';
import { prometheusMissing, startPrometheus, type TestPrometheus } from '../test-servers/prometheus';
import { SourceError } from './kind';
import { PROMETHEUS_POINTS_MAX, prometheusKind, type InstantSample, type RangeSeries } from './prometheus';

// Against the real Prometheus, scraping an exporter this file sets the values of, every second.
const missing = prometheusMissing();
if (missing) console.warn(`Prometheus data source tests skipped: ${missing}`);

const signal = new AbortController().signal;

describe.skipIf(missing !== null)('a Prometheus source', () => {
  let prometheus: TestPrometheus;
  beforeAll(async () => {
    prometheus = await startPrometheus();
    prometheus.set('wallboard_test_queue', 42, { room: 'lobby' });
    prometheus.set('wallboard_test_queue', 7, { room: 'hall' });
    await prometheus.waitFor('wallboard_test_queue{room="lobby"}', (value) => value === 42);
  });
  afterAll(async () => {
    await prometheus?.stop();
  });

  const run = (
    query: string,
    range: { seconds: number; step_seconds: number } | null = null,
    now = new Date(),
  ) =>
    prometheusKind.run(connectionTo(prometheus.url, { kind: 'prometheus' }), { query, range, now }, signal);

  it('answers an instant query as one item a series: labels, value, time', async () => {
    const now = new Date();
    const samples = (await run('wallboard_test_queue', null, now)) as InstantSample[];
    const byRoom = Object.fromEntries(samples.map((sample) => [sample.labels.room, sample]));
    expect(byRoom.lobby).toEqual({
      labels: {
        __name__: 'wallboard_test_queue',
        instance: expect.any(String),
        job: 'exporter',
        room: 'lobby',
      },
      value: 42,
      time: now.getTime() / 1000,
    });
    expect(byRoom.hall?.value).toBe(7);
  });

  it('sees a value set since, at the next scrape', async () => {
    prometheus.set('wallboard_test_queue', 43, { room: 'lobby' });
    await prometheus.waitFor('wallboard_test_queue{room="lobby"}', (value) => value === 43);
    const samples = (await run('sum(wallboard_test_queue)')) as InstantSample[];
    expect(samples).toEqual([{ labels: {}, value: 50, time: expect.any(Number) }]);
    prometheus.set('wallboard_test_queue', 42, { room: 'lobby' });
  });

  it('answers a scalar as one item with no labels, and NaN and Inf as null', async () => {
    const at = new Date('2026-03-02T10:00:00Z');
    await expect(run('scalar(vector(2.5))', null, at)).resolves.toEqual([
      { labels: {}, value: 2.5, time: at.getTime() / 1000 },
    ]);
    await expect(run('0/0', null, at)).resolves.toEqual([
      { labels: {}, value: null, time: at.getTime() / 1000 },
    ]);
    const infinite = (await run('vector(1)/0')) as InstantSample[];
    expect(infinite.map((sample) => sample.value)).toEqual([null]);
  });

  it('answers a range query as values and times, the set value among them', async () => {
    const now = new Date();
    const series = (await run(
      'wallboard_test_queue{room="hall"}',
      { seconds: 60, step_seconds: 1 },
      now,
    )) as RangeSeries[];
    expect(series).toHaveLength(1);
    const [hall] = series;
    expect(hall?.labels.room).toBe('hall');
    expect(hall?.values.length).toBe(hall?.times.length);
    expect(hall?.values.length).toBeGreaterThan(0);
    expect(new Set(hall?.values)).toEqual(new Set([7]));
    // Times are a step apart and end at the query's end at the latest.
    const times = hall?.times ?? [];
    expect(times.slice(1).every((time, index) => time - (times[index] ?? 0) === 1)).toBe(true);
    expect(times.at(-1)).toBeLessThanOrEqual(now.getTime() / 1000);
  });

  it('answers an instant query of a range vector in the range shape', async () => {
    const series = (await run('wallboard_test_queue{room="hall"}[30s]')) as RangeSeries[];
    expect(series[0]?.values.length).toBeGreaterThan(0);
    expect(new Set(series[0]?.values)).toEqual(new Set([7]));
  });

  it("says Prometheus' own reason for a refused query", async () => {
    const error: unknown = await run('sum(wallboard_test_queue').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SourceError);
    expect((error as Error).message).toMatch(/^Prometheus refused the query \(bad_data\): .*parse error/);
  });

  it('refuses its loopback address when the rule allows public addresses only', async () => {
    const connection = connectionTo(prometheus.url, { kind: 'prometheus', policy: PUBLIC_ONLY });
    const run = prometheusKind.run(connection, { query: 'up', range: null, now: new Date() }, signal);
    await expect(run).rejects.toThrow(/is refused: 127\.0\.0\.1 is a loopback address/);
  });
});

describe('a Prometheus source, against other servers', () => {
  let server: HttpFixtures;
  beforeAll(async () => {
    server = await startHttpFixtures();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('adds the API path under a base URL with a prefix, and the query parameters', async () => {
    const body = JSON.stringify({ status: 'success', data: { resultType: 'vector', result: [] } });
    server.serve('/prom/api/v1/query', { type: 'application/json', body });
    const now = new Date('2026-03-02T10:00:00.500Z');
    const result = await prometheusKind.run(
      connectionTo(`${server.url}/prom`),
      { query: 'up == 1', range: null, now },
      signal,
    );
    expect(result).toEqual([]);
    const asked = new URL(server.requests.at(-1)?.path ?? '', server.url);
    expect(asked.pathname).toBe('/prom/api/v1/query');
    expect(asked.searchParams.get('query')).toBe('up == 1');
    expect(asked.searchParams.get('time')).toBe('1772445600.5');
  });

  it('names the status of an answer that is not a Prometheus error', async () => {
    server.serve('/down/api/v1/query', { status: 503, type: 'text/plain', body: 'starting' });
    const run = prometheusKind.run(
      connectionTo(`${server.url}/down/`),
      { query: 'up', range: null, now: new Date() },
      signal,
    );
    await expect(run).rejects.toThrow(/answered 503/);
  });
});

describe('check of a Prometheus source', () => {
  it('refuses an empty query', () => {
    expect(prometheusKind.check('  ', null)).toBe('a Prometheus source needs a PromQL query');
    expect(prometheusKind.check('up', null)).toBeNull();
  });

  it(`refuses a range of more than ${PROMETHEUS_POINTS_MAX} points`, () => {
    expect(prometheusKind.check('up', { seconds: 86_400, step_seconds: 60 })).toBeNull();
    expect(prometheusKind.check('up', { seconds: 7 * 86_400, step_seconds: 1 })).toMatch(/604801 points/);
  });
});
