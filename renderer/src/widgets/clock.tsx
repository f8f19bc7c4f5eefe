import { useEffect, useMemo, useState } from 'react';
import type { WidgetProps } from './types';
import { fitFontSize } from './value';

/**
 * The current time in ms, updated on every whole second until `stopAt` (ms, when given): one
 * interval per widget, started on a second boundary so every clock on the board ticks together.
 * The first value is read when the component mounts; give it a new key to start over.
 */
export function useNow(stopAt?: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (stopAt !== undefined && Date.now() >= stopAt) return;
    let interval: ReturnType<typeof setInterval> | undefined;
    const tick = (): boolean => {
      const t = Date.now();
      setNow(t);
      const done = stopAt !== undefined && t >= stopAt;
      if (done) clearInterval(interval);
      return done;
    };
    const align = setTimeout(
      () => {
        if (!tick()) interval = setInterval(tick, 1000);
      },
      1000 - (Date.now() % 1000),
    );
    return () => {
      clearTimeout(align);
      clearInterval(interval);
    };
  }, [stopAt]);
  return now;
}

interface Zone {
  time: Intl.DateTimeFormat;
  date: Intl.DateTimeFormat;
  /** Set when the data named a zone this machine does not know; the screen's zone is used. */
  unknown?: string;
}

function zoneFormats(timeZone: string | undefined): Zone {
  const make = (zone: string | undefined): Zone => ({
    time: new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    }),
    date: new Intl.DateTimeFormat(undefined, {
      timeZone: zone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
    }),
  });
  try {
    return make(timeZone);
  } catch {
    return { ...make(undefined), unknown: timeZone };
  }
}

/** Hours, minutes and seconds of `ms` on the wall clock of the formatter's zone. */
export function wallClock(
  format: Intl.DateTimeFormat,
  ms: number,
): { hour: number; minute: number; second: number } {
  const parts = { hour: 0, minute: 0, second: 0 };
  for (const part of format.formatToParts(ms)) {
    if (part.type === 'hour' || part.type === 'minute' || part.type === 'second')
      parts[part.type] = Number(part.value);
  }
  return parts;
}

const pad = (n: number) => String(n).padStart(2, '0');
const HOURS = Array.from({ length: 12 }, (_, i) => i * 30);

function AnalogDial({
  size,
  hour,
  minute,
  second,
  theme,
}: { size: number; hour: number; minute: number; second: number } & Pick<WidgetProps<'clock'>, 'theme'>) {
  const r = size / 2;
  const hand = (className: string, angle: number, length: number, widthShare: number, color: string) => (
    <line
      className={className}
      y1={r * 0.1}
      y2={-r * length}
      transform={`rotate(${angle})`}
      stroke={color}
      strokeWidth={Math.max(1, r * widthShare)}
      strokeLinecap="round"
    />
  );
  return (
    <svg
      className="num-svg num-clock-dial"
      width={size}
      height={size}
      viewBox={`${-r} ${-r} ${size} ${size}`}
    >
      <circle r={Math.max(0, r - 1)} fill="none" stroke={theme.muted} strokeWidth={2} />
      {HOURS.map((angle) => (
        <line
          key={angle}
          y1={-r * 0.92}
          y2={-r * (angle % 90 === 0 ? 0.78 : 0.84)}
          transform={`rotate(${angle})`}
          stroke={theme.muted}
          strokeWidth={angle % 90 === 0 ? 3 : 1.5}
        />
      ))}
      {hand('num-clock-hour', (hour % 12) * 30 + minute * 0.5, 0.5, 0.07, theme.foreground)}
      {hand('num-clock-minute', minute * 6 + second * 0.1, 0.75, 0.045, theme.foreground)}
      {hand('num-clock-second', second * 6, 0.85, 0.02, theme.bad)}
      <circle r={Math.max(1, r * 0.04)} fill={theme.bad} />
    </svg>
  );
}

export function ClockWidget({ data, width, height, theme, fontSize }: WidgetProps<'clock'>) {
  const zone = useMemo(() => zoneFormats(data.timezone), [data.timezone]);
  const now = useNow();
  const { hour, minute, second } = wallClock(zone.time, now);
  const caption = zone.unknown ? `Unknown time zone "${zone.unknown}"` : data.timezone;
  const smallSize = Math.max(1, Math.min(fontSize, height * 0.1));
  const captionColor = zone.unknown ? theme.warning : theme.muted;

  if (data.style === 'analog') {
    const size = Math.max(0, Math.min(width, height - (caption ? smallSize * 1.3 : 0)) - 2);
    return (
      <div className="num-stack num-clock num-clock-analog" style={{ width, height }}>
        <AnalogDial size={size} hour={hour} minute={minute} second={second} theme={theme} />
        {caption && (
          <div className="num-clock-zone num-ellipsis" style={{ fontSize: smallSize, color: captionColor }}>
            {caption}
          </div>
        )}
      </div>
    );
  }

  const time = `${pad(hour)}:${pad(minute)}:${pad(second)}`;
  const lines = 1 + (caption ? 1 : 0);
  const timeSize = fitFontSize(time.length, width * 0.94, height - lines * smallSize * 1.3);
  return (
    <div className="num-stack num-clock num-clock-digital" style={{ width, height }}>
      <time className="num-big num-clock-time" style={{ fontSize: timeSize, color: theme.foreground }}>
        {time}
      </time>
      <div className="num-clock-date num-ellipsis" style={{ fontSize: smallSize, color: theme.muted }}>
        {zone.date.format(now)}
      </div>
      {caption && (
        <div className="num-clock-zone num-ellipsis" style={{ fontSize: smallSize, color: captionColor }}>
          {caption}
        </div>
      )}
    </div>
  );
}
