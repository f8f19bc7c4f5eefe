import { WEATHER_STALE_MS, type WeatherCondition } from '../../../src/shared/web-content';
import { useExpired } from '../board/use-expiry';
import { Icon } from '../icons/icon';
import { relativeTime, useMinuteClock } from './timeline';
import type { WidgetProps } from './types';
import { fitFontSize } from './value';
import './weather.css';

const DAY_ICONS: Record<WeatherCondition, string> = {
  clear: 'sun',
  'partly-cloudy': 'cloud-sun',
  cloudy: 'cloud',
  fog: 'smog',
  drizzle: 'cloud-rain',
  rain: 'cloud-showers-heavy',
  'freezing-rain': 'icicles',
  snow: 'snowflake',
  showers: 'cloud-sun-rain',
  thunderstorm: 'cloud-bolt',
};
const NIGHT_ICONS: Partial<Record<WeatherCondition, string>> = {
  clear: 'moon',
  'partly-cloudy': 'cloud-moon',
  showers: 'cloud-moon-rain',
};

/** The icon of a condition; the night's own where the sun would be wrong. */
export function conditionIcon(condition: WeatherCondition, isDay = true): string {
  return (isDay ? undefined : NIGHT_ICONS[condition]) ?? DAY_ICONS[condition];
}

const CONDITION_NAMES: Record<WeatherCondition, string> = {
  clear: 'Clear',
  'partly-cloudy': 'Partly cloudy',
  cloudy: 'Cloudy',
  fog: 'Fog',
  drizzle: 'Drizzle',
  rain: 'Rain',
  'freezing-rain': 'Freezing rain',
  snow: 'Snow',
  showers: 'Showers',
  thunderstorm: 'Thunderstorm',
};

// The forecast's dates are the place's own days: read as UTC so the screen's zone cannot shift them.
const WEEKDAY = new Intl.DateTimeFormat('en', { weekday: 'short', timeZone: 'UTC' });
export const weekdayOf = (date: string) => WEEKDAY.format(new Date(`${date}T00:00:00Z`));

// `|| 0`: -0.4 rounds to -0, which would print as "-0°".
const degrees = (value: number | undefined) => (value === undefined ? '–' : `${Math.round(value) || 0}°`);

/** A day of the forecast is at least this many font sizes wide; fewer days are drawn in less room. */
const DAY_WIDTH_EM = 3.4;
/** Weekday, icon and max/min: the days' row in font sizes. */
const DAYS_LINES = 4.2;

export function WeatherWidget({ data, width, height, theme, fontSize }: WidgetProps<'weather'>) {
  const { location, temperature, condition, is_day, days = [], updated_at } = data;
  const updatedMs = updated_at === undefined ? undefined : Date.parse(updated_at);
  const stale = useExpired(updatedMs === undefined ? undefined : (updatedMs + WEATHER_STALE_MS) / 1000);
  const now = useMinuteClock();
  const unit = data.unit === 'fahrenheit' ? 'F' : 'C';

  const small = Math.max(1, Math.min(fontSize, height * 0.14));
  const waiting = temperature === undefined && days.length === 0;
  if (waiting) {
    return (
      <div className="weather weather-waiting" style={{ width, height, fontSize: small }}>
        <div className="weather-location weather-ellipsis" style={{ color: theme.foreground }}>
          {location}
        </div>
        <div style={{ color: theme.muted }}>Waiting for the forecast</div>
      </div>
    );
  }

  // Lines shrunk below three quarters of the board's size are unreadable: they go first.
  const readable = small >= fontSize * 0.75;
  const showLocation = height >= fontSize * 3.5;
  // Too little room to say how old: the figures themselves take the warning colour.
  const staleLine = stale && readable && updatedMs !== undefined;
  const lines = (showLocation ? 1 : 0) + (staleLine ? 1 : 0);
  const dayCount = Math.min(days.length, Math.floor(width / (small * DAY_WIDTH_EM)));
  const daysHeight = small * DAYS_LINES;
  const showDays = readable && dayCount > 0 && height - lines * small * 1.3 - daysHeight >= small * 2.5;
  const currentRoom = Math.max(1, height - lines * small * 1.3 - (showDays ? daysHeight : 0));
  const temperatureText = temperature === undefined ? '' : `${degrees(temperature)}${unit}`;
  const currentSize = fitFontSize(
    temperatureText.length,
    width * 0.94,
    currentRoom * 0.9,
    condition ? 1.3 : 0,
  );

  return (
    <div className="weather" data-stale={stale} style={{ width, height }}>
      {showLocation && (
        <div className="weather-location weather-ellipsis" style={{ fontSize: small, color: theme.muted }}>
          {location}
        </div>
      )}
      {(temperature !== undefined || condition) && (
        <div
          className="weather-current"
          style={{ fontSize: currentSize, color: stale && !staleLine ? theme.warning : theme.foreground }}
        >
          {condition && (
            <Icon
              name={conditionIcon(condition, is_day)}
              title={CONDITION_NAMES[condition]}
              size="0.9em"
              color={theme.accent}
            />
          )}
          {temperature !== undefined && <span className="weather-temperature">{temperatureText}</span>}
        </div>
      )}
      {showDays && (
        <div className="weather-days" style={{ fontSize: small, height: daysHeight }}>
          {days.slice(0, dayCount).map((day) => (
            <div className="weather-day" key={day.date}>
              <span style={{ color: theme.muted }}>{weekdayOf(day.date)}</span>
              {day.condition ? (
                <Icon
                  name={conditionIcon(day.condition)}
                  title={CONDITION_NAMES[day.condition]}
                  size="1.3em"
                />
              ) : (
                <span className="weather-day-unknown">–</span>
              )}
              <span className="weather-day-range">
                <span style={{ color: theme.foreground }}>{degrees(day.max)}</span>{' '}
                <span style={{ color: theme.muted }}>{degrees(day.min)}</span>
              </span>
            </div>
          ))}
        </div>
      )}
      {staleLine && (
        <div className="weather-stale weather-ellipsis" style={{ fontSize: small, color: theme.warning }}>
          Updated {relativeTime(updatedMs / 1000, Math.max(now, updatedMs + WEATHER_STALE_MS))}
        </div>
      )}
    </div>
  );
}
