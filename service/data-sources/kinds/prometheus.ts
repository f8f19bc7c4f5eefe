/**
 * Prometheus: the source's URL is the server's base URL (`http://prometheus:9090`, or one under a
 * prefix); the query is PromQL. What a mapping reads:
 *
 * - an instant query (no range), at the query's time:
 *   `[{labels: {name: value, ...}, value: number | null, time: unix seconds}]`, one item a series;
 *   a scalar is one item with `labels: {}`; a string result is one item whose `value` is the string.
 * - a range query (the last `seconds`, a point every `step_seconds`):
 *   `[{labels, values: (number | null)[], times: unix seconds[]}]`, `values[i]` taken at `times[i]`.
 *   An instant query whose result is a range vector (`up[5m]`) answers this shape too.
 *
 * NaN and ±Inf are null (JSON has neither). A native histogram sample's value is null.
 */
import { fetchSource, isSuccess, sourceError, statusError, urlUnder } from './http-fetch';
import { SourceError, type SourceConnection, type SourceKind, type SourceQuery } from './kind';

export interface InstantSample {
  labels: Record<string, string>;
  value: number | string | null;
  time: number;
}

export interface RangeSeries {
  labels: Record<string, string>;
  values: (number | null)[];
  times: number[];
}

/** Prometheus answers at most this many points of one series in a range query. */
export const PROMETHEUS_POINTS_MAX = 11_000;

type Point = [number, string];

interface PrometheusAnswer {
  status?: string;
  errorType?: string;
  error?: string;
  data?: { resultType?: string; result?: unknown };
}

function numberOf(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

function pointOf(point: unknown): Point | null {
  return Array.isArray(point) && typeof point[0] === 'number' ? (point as Point) : null;
}

interface PrometheusSeries {
  metric?: Record<string, string>;
  value?: unknown;
  values?: unknown[];
}

function toInstant(resultType: string, result: unknown): InstantSample[] | RangeSeries[] {
  if (resultType === 'scalar' || resultType === 'string') {
    const point = pointOf(result);
    if (!point) return [];
    const value = resultType === 'scalar' ? numberOf(point[1]) : point[1];
    return [{ labels: {}, value, time: point[0] }];
  }
  const series = Array.isArray(result) ? (result as PrometheusSeries[]) : [];
  if (resultType === 'matrix') return series.map(toRange);
  return series.map((item) => {
    const point = pointOf(item.value);
    return { labels: item.metric ?? {}, value: point ? numberOf(point[1]) : null, time: point?.[0] ?? 0 };
  });
}

function toRange(item: PrometheusSeries): RangeSeries {
  const points = (item.values ?? []).map(pointOf).filter((point) => point !== null);
  return {
    labels: item.metric ?? {},
    values: points.map((point) => numberOf(point[1])),
    times: points.map((point) => point[0]),
  };
}

function parseAnswer(text: string): PrometheusAnswer | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as PrometheusAnswer) : null;
  } catch {
    return null;
  }
}

async function run(connection: SourceConnection, query: SourceQuery, signal: AbortSignal): Promise<unknown> {
  const fault = check(query.query, query.range);
  if (fault !== null) throw new SourceError(fault);
  const end = query.now.getTime() / 1000;
  const params: Record<string, string> = query.range
    ? {
        query: query.query,
        start: String(end - query.range.seconds),
        end: String(end),
        step: String(query.range.step_seconds),
      }
    : { query: query.query, time: String(end) };
  const url = urlUnder(connection.url, query.range ? 'api/v1/query_range' : 'api/v1/query', params);
  const reply = await fetchSource(connection, signal, { url, accept: 'application/json', anyStatus: true });
  const answer = parseAnswer(reply.text);
  // Prometheus answers a bad query with 400 or 422 and says why in the body: worth more than the status.
  if (answer?.status === 'error') throw prometheusError(answer, connection);
  if (!isSuccess(reply)) throw statusError(reply, connection, url);
  if (!answer)
    throw new SourceError('Prometheus answered something that is not JSON: is the URL its base URL?');
  const data = answer.data;
  if (answer.status !== 'success' || !data || typeof data.resultType !== 'string') {
    throw new SourceError('the answer is not a Prometheus query result: is the URL its base URL?');
  }
  if (query.range) {
    const series = Array.isArray(data.result) ? (data.result as PrometheusSeries[]) : [];
    return series.map(toRange);
  }
  return toInstant(data.resultType, data.result);
}

function prometheusError(answer: PrometheusAnswer, connection: SourceConnection): SourceError {
  const type = answer.errorType ? ` (${answer.errorType})` : '';
  return sourceError(`Prometheus refused the query${type}: ${answer.error ?? 'no reason given'}`, connection);
}

function check(query: string, range: SourceQuery['range']): string | null {
  if (query.trim() === '') return 'a Prometheus source needs a PromQL query';
  if (range) {
    const points = Math.floor(range.seconds / range.step_seconds) + 1;
    if (points > PROMETHEUS_POINTS_MAX) {
      return `a range of ${range.seconds} s with a point every ${range.step_seconds} s is ${points} points; Prometheus answers at most ${PROMETHEUS_POINTS_MAX} (take a longer step)`;
    }
  }
  return null;
}

export const prometheusKind: SourceKind = { run, check };
