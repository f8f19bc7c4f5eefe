import { formatValue } from '../format/number';
import { useNow } from './clock';
import type { WidgetProps } from './types';
import { fitFontSize } from './value';

type Part = [number, 'd' | 'h' | 'm' | 's'];

/**
 * Whole seconds left until `time` (unix seconds) as days, hours, minutes and seconds, from the
 * largest unit that is not zero: [[1, 'h'], [0, 'm'], [5, 's']]; [[0, 's']] once reached.
 */
export function timeLeft(time: number, nowMs: number): Part[] {
  const left = Math.max(0, Math.ceil(time - nowMs / 1000));
  const parts: Part[] = [
    [Math.floor(left / 86400), 'd'],
    [Math.floor((left % 86400) / 3600), 'h'],
    [Math.floor((left % 3600) / 60), 'm'],
    [left % 60, 's'],
  ];
  const first = parts.findIndex(([n]) => n > 0);
  return first === -1 ? [[0, 's']] : parts.slice(first);
}

/** A new `time` starts a new face, so it reads the clock afresh instead of a stale tick. */
export function CountdownWidget(props: WidgetProps<'countdown'>) {
  return <CountdownFace key={props.data.time} {...props} />;
}

function CountdownFace({ data, width, height, theme, fontSize }: WidgetProps<'countdown'>) {
  const { time, message } = data;
  const now = useNow(time * 1000);
  const parts = timeLeft(time, now);
  const reached = parts.length === 1 && parts[0]?.[0] === 0;
  const text = parts.map(([n, unit]) => `${formatValue(n)}${unit}`).join(' ');
  const messageSize = reached && message ? Math.max(1, Math.min(fontSize * 1.2, height * 0.15)) : 0;
  // Units are drawn at about half size, so they count as half a character each.
  const size = fitFontSize(text.length - parts.length * 0.5, width * 0.94, height - messageSize * 1.3);

  return (
    <div className="num-stack num-countdown" data-reached={reached} style={{ width, height }}>
      <div
        className="num-big num-countdown-time"
        style={{ fontSize: size, color: reached ? theme.muted : theme.foreground }}
      >
        {parts.map(([n, unit], index) => (
          <span key={unit}>
            {index > 0 && ' '}
            {formatValue(n)}
            <span className="num-countdown-unit">{unit}</span>
          </span>
        ))}
      </div>
      {reached && message && (
        <div className="num-countdown-message" style={{ fontSize: messageSize, color: theme.foreground }}>
          {message}
        </div>
      )}
    </div>
  );
}
