import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { WEATHER_REFRESH_MS } from '../src/shared/web-content';
import { WEATHER_PASS_MS } from './jobs/weather';
import { eventsAfter, lastEventId, startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';
import { conditionOfWmo, fetchForecast, ForecastError, forecastUrl } from './weather/open-meteo';

/** Open-Meteo on the loopback address: it counts requests and answers as the test says. */
class OpenMeteoStandIn {
  readonly requests: URLSearchParams[] = [];
  mode: 'ok' | 'down' | 'bad' | 'silent' = 'ok';
  private readonly server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    this.requests.push(url.searchParams);
    if (this.mode === 'silent') return;
    if (url.pathname !== '/v1/forecast') {
      response.writeHead(404).end();
    } else if (this.mode === 'down') {
      response.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway');
    } else if (this.mode === 'bad') {
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"current":{"temperature_2m":"warm"}}');
    } else {
      const fahrenheit = url.searchParams.get('temperature_unit') === 'fahrenheit';
      const t = (celsius: number) => (fahrenheit ? Math.round((celsius * 9) / 5 + 32) : celsius);
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          latitude: Number(url.searchParams.get('latitude')),
          current: { time: '2026-11-21T08:00', temperature_2m: t(4.5), weather_code: 3, is_day: 1 },
          daily: {
            time: ['2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25'],
            weather_code: [3, 61, 0, 95, 123],
            temperature_2m_max: [t(7), t(6), t(9), t(5), null],
            temperature_2m_min: [t(1), t(2), t(0), t(-1), null],
          },
        }),
      );
    }
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

let provider: OpenMeteoStandIn;
let providerUrl: string;
let clock: FakeClock;
let service: TestService;

beforeAll(async () => {
  provider = new OpenMeteoStandIn();
  providerUrl = await provider.start();
  clock = new FakeClock();
  service = await startTestService({ clock, config: { weatherUrl: providerUrl } });
});
afterAll(async () => {
  await service.close();
  await provider.close();
});
afterEach(() => {
  provider.mode = 'ok';
  vi.restoreAllMocks();
});

let flows = 0;
/** A new weather flow at the place; its tag. */
async function weatherFlow(place: Record<string, unknown>): Promise<string> {
  flows += 1;
  const tag = `weather-${flows}`;
  expect((await service.call('POST', '/flows', { tag, variant: 'weather' })).statusCode).toBe(201);
  const written = await service.call('PUT', `/flows/${tag}/metrics`, place);
  expect(written.statusCode, written.body).toBe(200);
  return tag;
}

const metricsOf = async (tag: string) => (await service.call('GET', `/flows/${tag}/metrics`)).json();
const requestsAt = (latitude: string) =>
  provider.requests.filter((q) => q.get('latitude') === latitude).length;

describe('the forecast job', () => {
  it('asks once per place every ten minutes, however many flows and passes, and publishes the figures', async () => {
    const first = await weatherFlow({
      location: 'Oslo',
      latitude: 59.9139,
      longitude: 10.7522,
      title: 'Home',
    });
    // The same place to two decimals: one request feeds both.
    const second = await weatherFlow({ location: 'Oslo centre', latitude: 59.911, longitude: 10.749 });
    const mark = await lastEventId(service.db);

    await clock.advance(WEATHER_PASS_MS);
    expect(requestsAt('59.91')).toBe(1);
    const query = provider.requests.at(-1)!;
    expect(Object.fromEntries(query)).toEqual({
      latitude: '59.91',
      longitude: '10.75',
      current: 'temperature_2m,weather_code,is_day',
      daily: 'weather_code,temperature_2m_max,temperature_2m_min',
      timezone: 'auto',
      forecast_days: '5',
      temperature_unit: 'celsius',
    });
    const updatedAt = clock.now().toISOString();
    expect(await metricsOf(first)).toEqual({
      location: 'Oslo',
      latitude: 59.9139,
      longitude: 10.7522,
      title: 'Home',
      temperature: 4.5,
      condition: 'cloudy',
      is_day: true,
      days: [
        { date: '2026-11-21', condition: 'cloudy', min: 1, max: 7 },
        { date: '2026-11-22', condition: 'rain', min: 2, max: 6 },
        { date: '2026-11-23', condition: 'clear', min: 0, max: 9 },
        { date: '2026-11-24', condition: 'thunderstorm', min: -1, max: 5 },
        // An unknown code and missing figures are left out, not guessed.
        { date: '2026-11-25' },
      ],
      updated_at: updatedAt,
    });
    expect((await metricsOf(second)).temperature).toBe(4.5);
    // Published as any metrics write: to the rooms of the flows, which their screens are in.
    const events = await eventsAfter(service.db, mark, 'metrics.changed');
    expect(events.map((e) => e.payload.flow_tag).sort()).toEqual([first, second].sort());
    expect(events.every((e) => e.rooms.length === 1 && e.rooms[0]!.startsWith('flow:'))).toBe(true);

    // Nine more passes: no request, no write.
    const before = await lastEventId(service.db);
    await clock.advance(WEATHER_REFRESH_MS - WEATHER_PASS_MS);
    expect(requestsAt('59.91')).toBe(1);
    expect(await eventsAfter(service.db, before, 'metrics.changed')).toEqual([]);
    await clock.advance(WEATHER_PASS_MS);
    expect(requestsAt('59.91')).toBe(2);
    expect((await metricsOf(first)).updated_at).toBe(clock.now().toISOString());
  });

  it('feeds a moved flow at once from a place already asked for, else at the next pass', async () => {
    const paris = await weatherFlow({ location: 'Paris', latitude: 48.8566, longitude: 2.3522 });
    const lyon = await weatherFlow({
      location: 'Lyon',
      latitude: 45.764,
      longitude: 4.8357,
      unit: 'fahrenheit',
    });
    await clock.advance(WEATHER_PASS_MS);
    expect(requestsAt('48.86') + requestsAt('45.76')).toBe(2);
    expect((await metricsOf(lyon)).temperature).toBe(40);

    // Lyon moves to Paris (in celsius): Paris's forecast is written at the next pass, no request.
    const moved = await service.call('PATCH', `/flows/${lyon}/metrics`, {
      location: 'Paris',
      latitude: 48.857,
      longitude: 2.352,
      unit: null,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    await clock.advance(WEATHER_PASS_MS);
    expect(requestsAt('48.86')).toBe(1);
    expect(await metricsOf(lyon)).toMatchObject({ location: 'Paris', temperature: 4.5 });
    expect((await metricsOf(lyon)).unit).toBeUndefined();

    // Paris moves to a new place: asked for at the next pass.
    await service.call('PATCH', `/flows/${paris}/metrics`, {
      location: 'Nice',
      latitude: 43.7,
      longitude: 7.27,
    });
    await clock.advance(WEATHER_PASS_MS);
    expect(requestsAt('43.7')).toBe(1);
    expect(await metricsOf(paris)).toMatchObject({ location: 'Nice', updated_at: clock.now().toISOString() });
  });

  it('keeps the data when the provider is down or answers nonsense, and logs once per streak', async () => {
    const errors = vi.spyOn(service.app.wallboard.log, 'error');
    const tag = await weatherFlow({ location: 'Rome', latitude: 41.9, longitude: 12.5 });
    await clock.advance(WEATHER_PASS_MS);
    const good = await metricsOf(tag);
    expect(good.temperature).toBe(4.5);

    provider.mode = 'down';
    await clock.advance(3 * WEATHER_REFRESH_MS);
    expect(requestsAt('41.9')).toBe(4);
    expect(await metricsOf(tag)).toEqual(good);
    const rome = errors.mock.calls.filter(([, message]) => String(message).includes('41.9,12.5'));
    expect(rome).toHaveLength(1);
    expect(String((rome[0]![0] as { err: Error }).err.message)).toBe(
      `the forecast provider ${providerUrl} answered 502: bad gateway`,
    );

    // Back, then wrong: a new streak is logged once more.
    provider.mode = 'ok';
    await clock.advance(WEATHER_REFRESH_MS);
    expect((await metricsOf(tag)).updated_at).toBe(clock.now().toISOString());
    provider.mode = 'bad';
    const lastGood = await metricsOf(tag);
    await clock.advance(2 * WEATHER_REFRESH_MS);
    expect(await metricsOf(tag)).toEqual(lastGood);
    const all = errors.mock.calls.filter(([, message]) => String(message).includes('41.9,12.5'));
    expect(all).toHaveLength(2);
    expect(String((all[1]![0] as { err: Error }).err.message)).toMatch(
      /answered no forecast: current.temperature_2m: /,
    );
  });

  it('leaves flows without coordinates, and other variants, alone', async () => {
    const before = provider.requests.length;
    await weatherFlow({ location: 'Nowhere' });
    expect((await service.call('POST', '/flows', { tag: 'not-weather', variant: 'text' })).statusCode).toBe(
      201,
    );
    expect(
      (await service.call('PUT', '/flows/not-weather/metrics', { text: 'x', latitude: 1, longitude: 2 }))
        .statusCode,
    ).toBe(200);
    await clock.advance(WEATHER_REFRESH_MS);
    expect(provider.requests.slice(before).map((q) => q.get('latitude'))).not.toContain('1');
    expect(await metricsOf('not-weather')).toEqual({ text: 'x', latitude: 1, longitude: 2 });
  });
});

describe('the Open-Meteo client', () => {
  it('maps WMO codes to conditions', () => {
    expect([0, 2, 3, 45, 53, 57, 63, 66, 75, 81, 86, 99, 4].map(conditionOfWmo)).toEqual([
      'clear',
      'partly-cloudy',
      'cloudy',
      'fog',
      'drizzle',
      'freezing-rain',
      'rain',
      'freezing-rain',
      'snow',
      'showers',
      'snow',
      'thunderstorm',
      undefined,
    ]);
  });

  it('keeps the query of the provider URL: a paid API key', () => {
    const url = forecastUrl('https://customer-api.example/base/?apikey=k3y', {
      latitude: 1.5,
      longitude: -2,
      unit: 'fahrenheit',
    });
    expect(url.origin + url.pathname).toBe('https://customer-api.example/base/v1/forecast');
    expect(url.searchParams.get('apikey')).toBe('k3y');
    expect(url.searchParams.get('temperature_unit')).toBe('fahrenheit');
  });

  it('says why an answer is not a forecast, or did not come', async () => {
    const place = { latitude: 1, longitude: 2, unit: 'celsius' } as const;
    provider.mode = 'bad';
    await expect(fetchForecast(providerUrl, place)).rejects.toThrow(ForecastError);
    provider.mode = 'silent';
    await expect(fetchForecast(providerUrl, place, { timeoutMs: 100 })).rejects.toThrow(
      `the forecast provider ${providerUrl} could not be reached: no answer within 100 ms`,
    );
    provider.mode = 'ok';
    await expect(fetchForecast(`${providerUrl}/elsewhere/`, place)).rejects.toThrow(
      `the forecast provider ${providerUrl} answered 404`,
    );
  });
});
