import type { MetricsData } from '../../src/shared/metrics';
import type { Variant } from '../../src/shared/variants';
import type { Queryable } from '../db/database';
import { fromJson } from '../db/dialect';
import type { ForecastPlace } from './open-meteo';

/** A flow the forecast feeds, with the place its data names. */
export interface WeatherFlow {
  id: string;
  /** The flow's account, whose tag it is and whose screens hear of its data. */
  account: string;
  tag: string;
  variant: Variant;
  place: ForecastPlace;
  /** The data's `updated_at`: a flow whose data was replaced since the last forecast is written again. */
  updatedAt: unknown;
}

/**
 * A place as the forecast is kept for: coordinates to two decimals (about a kilometre, finer
 * than any forecast model's grid) so that flows of one town share one request.
 */
export function placeOf(data: MetricsData): ForecastPlace | null {
  const { latitude, longitude, unit } = data;
  if (typeof latitude !== 'number' || typeof longitude !== 'number') return null;
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
  const round = (value: number) => Math.round(value * 100) / 100;
  return {
    latitude: round(latitude),
    longitude: round(longitude),
    unit: unit === 'fahrenheit' ? 'fahrenheit' : 'celsius',
  };
}

export const placeKey = (place: ForecastPlace) => `${place.latitude},${place.longitude},${place.unit}`;

/**
 * The flows to feed: those of the weather variant, and those a weather widget shows, whose data
 * has numeric `latitude` and `longitude`.
 */
export async function weatherFlows(db: Queryable): Promise<WeatherFlow[]> {
  const rows = await db.kysely
    .selectFrom('flows')
    .select(['id', 'account_id', 'tag', 'variant', 'data'])
    .where((eb) =>
      eb.or([
        eb('variant', '=', 'weather'),
        eb.exists(
          eb
            .selectFrom('widgets')
            .select('widgets.id')
            .whereRef('widgets.flow_id', '=', 'flows.id')
            .where('widgets.variant', '=', 'weather'),
        ),
      ]),
    )
    .orderBy('tag')
    .execute();
  return rows.flatMap((row) => {
    const data = fromJson<MetricsData>(row.data);
    const place = placeOf(data);
    return place
      ? [
          {
            id: row.id,
            account: row.account_id,
            tag: row.tag,
            variant: row.variant,
            place,
            updatedAt: data.updated_at,
          },
        ]
      : [];
  });
}
