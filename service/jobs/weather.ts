import { withAccount } from '../accounts/scope';
import { toFieldIssues, type FieldIssue } from '../../src/shared/issues';
import { parseMetrics, type MetricsData } from '../../src/shared/metrics';
import { WEATHER_REFRESH_MS } from '../../src/shared/web-content';
import { writeManyMetrics } from '../actions/write-metrics';
import type { ServiceContext } from '../context';
import type { MetricsCheck, MetricsWriteResult } from '../domain/metric-writes';
import { fetchForecast, type Forecast, type ForecastPlace } from '../weather/open-meteo';
import { placeKey, placeOf, weatherFlows, type WeatherFlow } from '../weather/weather-flows';
import { every, type Job } from './jobs';

/** How often the flows are looked over: a moved flow gets a forecast kept for its place within a minute. */
export const WEATHER_PASS_MS = 60_000;

/** The fields the forecast owns; every other field of the flow is the operator's and stays. */
const FORECAST_FIELDS = ['temperature', 'condition', 'is_day', 'days', 'updated_at'] as const;

/** A place's last forecast, and when it was last asked for (a failed request counts too). */
interface PlaceState {
  forecast: { figures: Forecast; updatedAt: string } | null;
  askedAt: number;
  /** In a streak of failures: only its first is logged. */
  failing: boolean;
}

/** A write refused because the flow moved to another place since this pass read it. */
const MOVED = 'moved to another place during the forecast pass';

/**
 * Feeds weather flows from the forecast provider (docs/api/web-content.md): every minute it
 * looks at the flows with coordinates, asks for each place at most every WEATHER_REFRESH_MS,
 * and writes the figures through the metrics write, so screens hear of them as of any write.
 * A failure keeps the flows' data as it was: screens show it as stale by its `updated_at`.
 */
export class WeatherJob implements Job {
  readonly name = 'weather';
  private readonly places = new Map<string, PlaceState>();
  /** What was last written to each flow (`place@updated_at`), so an unchanged forecast is not written again. */
  private readonly written = new Map<string, string>();
  /** Flows whose write was refused (their data does not fit their variant), logged once until fixed. */
  private readonly refused = new Set<string>();
  private readonly passes: Job;
  private abort = new AbortController();

  constructor(private readonly ctx: ServiceContext) {
    this.passes = every(ctx, 'weather', WEATHER_PASS_MS, () => this.pass());
  }

  start(): void {
    this.abort = new AbortController();
    this.passes.start();
  }

  /** A request under way is cut short: closing the service never waits for the provider. */
  stop(): Promise<void> {
    this.abort.abort();
    return this.passes.stop();
  }

  private async pass(): Promise<void> {
    const now = this.ctx.clock.now().getTime();
    const byPlace = new Map<string, { place: ForecastPlace; flows: WeatherFlow[] }>();
    for (const flow of await weatherFlows(this.ctx.db)) {
      const key = placeKey(flow.place);
      const group = byPlace.get(key) ?? { place: flow.place, flows: [] };
      group.flows.push(flow);
      byPlace.set(key, group);
    }
    const writes = [];
    for (const [key, { place, flows }] of byPlace) {
      const forecast = (await this.refresh(key, place, now)).forecast;
      if (!forecast) continue;
      const mark = `${key}@${forecast.updatedAt}`;
      for (const flow of flows) {
        if (this.written.get(flow.id) === mark && flow.updatedAt === forecast.updatedAt) continue;
        writes.push({ flow, mark, change: this.changeOf(forecast), check: this.checkAt(key) });
      }
    }
    this.forget(byPlace, now);
    // Each account's flows are written as that account: tags name flows within one.
    for (const account of new Set(writes.map(({ flow }) => flow.account))) {
      const own = writes.filter(({ flow }) => flow.account === account);
      const results = await withAccount(account, () =>
        writeManyMetrics(
          this.ctx,
          own.map(({ flow, change, check }) => ({ key: flow.tag, change, check })),
        ),
      );
      own.forEach(({ flow, mark }, i) => this.noteWrite(flow, mark, results[i]));
    }
  }

  /** The place's forecast, asked for again once WEATHER_REFRESH_MS has passed since the last try. */
  private async refresh(key: string, place: ForecastPlace, now: number): Promise<PlaceState> {
    const known = this.places.get(key);
    if (known && now - known.askedAt < WEATHER_REFRESH_MS) return known;
    const state: PlaceState = known ?? { forecast: null, askedAt: now, failing: false };
    state.askedAt = now;
    this.places.set(key, state);
    try {
      const figures = await fetchForecast(this.ctx.config.weatherUrl, place, { signal: this.abort.signal });
      state.forecast = { figures, updatedAt: new Date(now).toISOString() };
      state.failing = false;
    } catch (error) {
      if (this.abort.signal.aborted) return state;
      if (!state.failing) {
        this.ctx.log.error(
          { err: error },
          `the forecast for ${place.latitude},${place.longitude} (${place.unit}) failed; its flows keep their data`,
        );
      }
      state.failing = true;
    }
    return state;
  }

  private changeOf(forecast: NonNullable<PlaceState['forecast']>) {
    const set: MetricsData = { ...forecast.figures, updated_at: forecast.updatedAt };
    return { kind: 'merge' as const, set, remove: FORECAST_FIELDS.filter((field) => !(field in set)) };
  }

  /** The written data must fit the flow's variant, and the flow must still be at the place asked for. */
  private checkAt(key: string): MetricsCheck {
    return (variant, data): FieldIssue[] | null => {
      const place = placeOf(data);
      if (!place || placeKey(place) !== key) return [{ path: 'latitude', message: MOVED }];
      const parsed = parseMetrics(variant, data);
      return parsed.success ? null : toFieldIssues(parsed.error);
    };
  }

  private noteWrite(flow: WeatherFlow, mark: string, result: MetricsWriteResult | undefined): void {
    if (result?.status === 'updated') {
      this.written.set(flow.id, mark);
      this.refused.delete(flow.id);
    } else if (
      result?.status === 'invalid' &&
      result.details[0]?.message !== MOVED &&
      !this.refused.has(flow.id)
    ) {
      this.refused.add(flow.id);
      const why = result.details.map(({ path, message }) => `${path}: ${message}`).join('; ');
      this.ctx.log.error(
        { err: new Error(why) },
        `the forecast does not fit flow "${flow.tag}" of variant "${result.variant}"`,
      );
    }
  }

  /** Places no flow names any more go once their forecast is old; flows gone are forgotten. */
  private forget(byPlace: ReadonlyMap<string, { flows: WeatherFlow[] }>, now: number): void {
    for (const [key, state] of this.places) {
      if (!byPlace.has(key) && now - state.askedAt >= WEATHER_REFRESH_MS) this.places.delete(key);
    }
    const seen = new Set([...byPlace.values()].flatMap(({ flows }) => flows.map((flow) => flow.id)));
    for (const id of this.written.keys()) if (!seen.has(id)) this.written.delete(id);
    for (const id of this.refused) if (!seen.has(id)) this.refused.delete(id);
  }
}
