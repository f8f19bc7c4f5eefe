import { z } from 'zod';
import type { WeatherCondition } from '../../src/shared/web-content';

/**
 * The forecast client: one request to an Open-Meteo compatible API (`--weather-url`) for the
 * current weather and the next days of one place, checked and turned into the weather widget's
 * fields (src/shared/metrics.ts). Open-Meteo's free API is for non-commercial use only
 * (docs/api/web-content.md).
 */

export type TemperatureUnit = 'celsius' | 'fahrenheit';

export interface ForecastPlace {
  latitude: number;
  longitude: number;
  unit: TemperatureUnit;
}

export interface ForecastDay {
  date: string;
  condition?: WeatherCondition;
  min?: number;
  max?: number;
}

/** The figures of a weather flow the service writes (its other fields are the operator's). */
export interface Forecast {
  temperature?: number;
  condition?: WeatherCondition;
  is_day?: boolean;
  days: ForecastDay[];
}

/** The provider could not be asked, or its answer was not a forecast: the message says which. */
export class ForecastError extends Error {
  override readonly name = 'ForecastError';
}

export const FORECAST_DAYS = 5;
export const FORECAST_TIMEOUT_MS = 10_000;

/** WMO weather interpretation codes (as Open-Meteo documents them) to the widget's conditions. */
const WMO_CONDITIONS: Readonly<Record<number, WeatherCondition>> = {
  0: 'clear',
  1: 'clear',
  2: 'partly-cloudy',
  3: 'cloudy',
  45: 'fog',
  48: 'fog',
  51: 'drizzle',
  53: 'drizzle',
  55: 'drizzle',
  56: 'freezing-rain',
  57: 'freezing-rain',
  61: 'rain',
  63: 'rain',
  65: 'rain',
  66: 'freezing-rain',
  67: 'freezing-rain',
  71: 'snow',
  73: 'snow',
  75: 'snow',
  77: 'snow',
  80: 'showers',
  81: 'showers',
  82: 'showers',
  85: 'snow',
  86: 'snow',
  95: 'thunderstorm',
  96: 'thunderstorm',
  99: 'thunderstorm',
};

/** A code the table does not know leaves the condition out rather than guessing one. */
export function conditionOfWmo(code: number | null | undefined): WeatherCondition | undefined {
  return code === null || code === undefined ? undefined : WMO_CONDITIONS[code];
}

// Open-Meteo answers null for a figure it has not got (a model's gap): such a figure is left out.
const figure = z.number().nullable().optional();
const figures = z.array(figure);

const answerSchema = z.object({
  current: z.object({
    temperature_2m: figure,
    weather_code: figure,
    is_day: figure,
  }),
  daily: z
    .object({
      time: z.array(z.iso.date()),
      weather_code: figures,
      temperature_2m_max: figures,
      temperature_2m_min: figures,
    })
    .refine(
      (daily) =>
        [daily.weather_code, daily.temperature_2m_max, daily.temperature_2m_min].every(
          (series) => series.length === daily.time.length,
        ),
      { message: 'the daily series must be as long as "time"' },
    ),
});
type Answer = z.infer<typeof answerSchema>;

const defined = (value: number | null | undefined) => (value === null ? undefined : value);

/** Drops the fields left undefined: the flow's stored JSON holds only what is known. */
function known<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function forecastOf(answer: Answer): Forecast {
  const { current, daily } = answer;
  const isDay = defined(current.is_day);
  return known({
    temperature: defined(current.temperature_2m),
    condition: conditionOfWmo(current.weather_code),
    is_day: isDay === undefined ? undefined : isDay !== 0,
    // The schema's limit holds whatever a provider sends beyond the days asked for.
    days: daily.time.slice(0, FORECAST_DAYS).map((date, i) =>
      known({
        date,
        condition: conditionOfWmo(daily.weather_code[i]),
        min: defined(daily.temperature_2m_min[i]),
        max: defined(daily.temperature_2m_max[i]),
      }),
    ),
  });
}

/**
 * The request for one place, as Open-Meteo's `/v1/forecast` takes it. A query in `baseUrl` is
 * kept: the paid API's key (`https://customer-api.open-meteo.com/?apikey=...`).
 */
export function forecastUrl(baseUrl: string, place: ForecastPlace): URL {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/v1/forecast`;
  const params = {
    latitude: String(place.latitude),
    longitude: String(place.longitude),
    current: 'temperature_2m,weather_code,is_day',
    daily: 'weather_code,temperature_2m_max,temperature_2m_min',
    timezone: 'auto',
    forecast_days: String(FORECAST_DAYS),
    temperature_unit: place.unit,
  };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url;
}

/** Open-Meteo's refusals carry `{error: true, reason}`; other servers' bodies are cut short. */
function reasonOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { reason?: unknown };
    if (typeof parsed.reason === 'string') return parsed.reason;
  } catch {
    // Not JSON: the text itself says what went wrong.
  }
  return body.slice(0, 200);
}

/**
 * Asks for the forecast of `place`; a ForecastError when the provider cannot be reached within
 * `timeoutMs`, refuses, or answers something else than a forecast. `signal` aborts it (the
 * service stopping).
 */
export async function fetchForecast(
  baseUrl: string,
  place: ForecastPlace,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<Forecast> {
  const url = forecastUrl(baseUrl, place);
  const timeout = AbortSignal.timeout(options.timeoutMs ?? FORECAST_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  let body: string;
  try {
    response = await fetch(url, { signal, headers: { accept: 'application/json' } });
    body = await response.text();
  } catch (error) {
    const why = timeout.aborted
      ? `no answer within ${options.timeoutMs ?? FORECAST_TIMEOUT_MS} ms`
      : String(error);
    throw new ForecastError(`the forecast provider ${url.origin} could not be reached: ${why}`, {
      cause: error,
    });
  }
  if (!response.ok) {
    throw new ForecastError(
      `the forecast provider ${url.origin} answered ${response.status}: ${reasonOf(body)}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new ForecastError(`the forecast provider ${url.origin} answered something else than JSON`);
  }
  const parsed = answerSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') || 'the answer';
    throw new ForecastError(
      `the forecast provider ${url.origin} answered no forecast: ${where}: ${issue?.message ?? 'invalid'}`,
    );
  }
  return forecastOf(parsed.data);
}
