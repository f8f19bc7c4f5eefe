import { formatValue } from '../format/number';
import type { WidgetProps } from './types';
import { fitFontSize } from './value';

const POINTS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;
const CARDINALS = [
  ['N', 0],
  ['E', 90],
  ['S', 180],
  ['W', 270],
] as const;
const TICKS = Array.from({ length: 12 }, (_, i) => i * 30);

/** The nearest of the eight compass points to `heading` degrees. */
export function compassPoint(heading: number): string {
  const index = Math.round((((heading % 360) + 360) % 360) / 45) % 8;
  return POINTS[index] ?? 'N';
}

export function CompassWidget({ data, width, height, theme, fontSize }: WidgetProps<'compass'>) {
  const { heading, label } = data;
  const text = `${formatValue(heading, { rounding: 0 })}° ${compassPoint(heading)}`;
  const headingSize = Math.max(
    1,
    Math.min(fontSize * 1.4, height * 0.12, fitFontSize(text.length, width, height)),
  );
  const labelSize = label ? Math.max(1, Math.min(fontSize, height * 0.09)) : 0;
  const textRoom = headingSize * 1.25 + labelSize * 1.25;
  const size = Math.max(0, Math.min(width, height - textRoom) - 4);
  const r = size / 2;
  const tick = r * 0.08;
  const letter = r * 0.2;

  return (
    <div className="num-stack num-compass" style={{ width, height }}>
      <svg className="num-svg" width={size} height={size} viewBox={`${-r} ${-r} ${size} ${size}`}>
        <circle r={Math.max(0, r - 1)} fill="none" stroke={theme.muted} strokeWidth={2} />
        {TICKS.map((angle) => (
          <line
            key={angle}
            y1={-r + 2}
            y2={-r + 2 + (angle % 90 === 0 ? tick * 1.6 : tick)}
            transform={`rotate(${angle})`}
            stroke={theme.muted}
            strokeWidth={angle % 90 === 0 ? 2 : 1}
          />
        ))}
        {CARDINALS.map(([name, angle]) => {
          const distance = r - tick * 1.6 - letter * 0.75;
          return (
            <text
              className="num-compass-mark"
              key={name}
              x={Math.sin((angle * Math.PI) / 180) * distance}
              y={-Math.cos((angle * Math.PI) / 180) * distance}
              textAnchor="middle"
              dominantBaseline="central"
              fontSize={letter}
              fontWeight={name === 'N' ? 700 : 400}
              fill={name === 'N' ? theme.bad : theme.foreground}
            >
              {name}
            </text>
          );
        })}
        <g className="num-compass-needle" transform={`rotate(${heading})`}>
          <polygon points={`0,${-r * 0.62} ${r * 0.09},0 ${-r * 0.09},0`} fill={theme.bad} />
          <polygon points={`0,${r * 0.62} ${r * 0.09},0 ${-r * 0.09},0`} fill={theme.muted} />
          <circle r={r * 0.05} fill={theme.foreground} />
        </g>
      </svg>
      <div className="num-big num-compass-heading" style={{ fontSize: headingSize, color: theme.foreground }}>
        {text}
      </div>
      {label && (
        <div className="num-compass-label num-ellipsis" style={{ fontSize: labelSize, color: theme.muted }}>
          {label}
        </div>
      )}
    </div>
  );
}
