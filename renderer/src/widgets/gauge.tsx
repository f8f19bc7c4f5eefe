import { arc } from 'd3-shape';
import { useMemo } from 'react';
import { formatValue } from '../format/number';
import type { WidgetProps } from './types';
import { fitFontSize } from './value';

const arcPath = arc();

/** The angle of `value` on a half-circle dial (d3's angles: 0 points up, clockwise). */
export function dialAngle(value: number, min: number, max: number): number {
  const share = max > min ? (value - min) / (max - min) : 0;
  return -Math.PI / 2 + Math.PI * Math.min(1, Math.max(0, share));
}

/** An SVG path of the ring between two radii from one dial angle to another. */
export function ringPath(inner: number, outer: number, from: number, to: number): string {
  return arcPath({ innerRadius: inner, outerRadius: outer, startAngle: from, endAngle: to }) ?? '';
}

/** A point at `radius` along dial angle `angle`, relative to the dial's centre. */
export function polar(radius: number, angle: number): [number, number] {
  return [Math.sin(angle) * radius, -Math.cos(angle) * radius];
}

export function GaugeWidget({ data, width, height, theme, fontSize }: WidgetProps<'gauge'>) {
  const { value, value_type, value_2, range } = data;
  const min = data.min ?? 0;
  const max = data.max ?? 100;
  const text = formatValue(value, { value_type });
  const secondText = value_2 === undefined ? '' : formatValue(value_2, { value_type });
  const second =
    value_2 === undefined ? '' : data.value_2_label ? `${data.value_2_label}: ${secondText}` : secondText;

  const small = Math.max(1, Math.min(fontSize * 0.85, height * 0.09, width * 0.08));
  const bottom = small * 1.4 * (value_2 === undefined ? 1 : 2);
  const radius = Math.max(0, Math.min(width / 2 - 2, height - bottom - 4));
  const thickness = radius * 0.26;
  const bandWidth = range?.length ? Math.max(2, radius * 0.06) : 0;
  const inner = radius - thickness;
  const bandOuter = inner - (bandWidth ? 2 : 0);
  const hole = Math.max(0, bandOuter - bandWidth);
  const cx = width / 2;
  const cy = (height - radius - bottom) / 2 + radius;
  const valueSize = Math.min(fitFontSize(text.length, hole * 1.7, hole * 0.75), radius * 0.45);
  const fill = data.value_color ?? data.gauge_color ?? theme.accent;
  const secondColor = data.value_2_color ?? theme.foreground;
  const secondSize = Math.min(small, fitFontSize(second.length, width, small * 1.2));

  const paths = useMemo(() => {
    const start = -Math.PI / 2;
    return {
      track: ringPath(inner, radius, start, Math.PI / 2),
      value: ringPath(inner, radius, start, dialAngle(value, min, max)),
      bands: (range ?? []).map((band) => {
        const [from, to] = band.from <= band.to ? [band.from, band.to] : [band.to, band.from];
        return {
          color: band.color,
          d: ringPath(hole, bandOuter, dialAngle(from, min, max), dialAngle(to, min, max)),
        };
      }),
    };
  }, [inner, radius, hole, bandOuter, value, min, max, range]);

  const markerAngle = value_2 === undefined ? null : dialAngle(value_2, min, max);
  const marker =
    markerAngle === null ? null : { from: polar(hole, markerAngle), to: polar(radius + 3, markerAngle) };

  return (
    <svg className="num-svg num-gauge" width={width} height={height} viewBox={`0 0 ${width} ${height}`}>
      <g transform={`translate(${cx},${cy})`}>
        <path
          className="num-gauge-track"
          d={paths.track}
          fill={data.gauge_color ?? theme.muted}
          opacity={0.25}
        />
        {paths.bands.map((band, index) => (
          <path className="num-gauge-band" key={index} d={band.d} fill={band.color} />
        ))}
        <path className="num-gauge-value" d={paths.value} fill={fill} />
        {marker && (
          <line
            className="num-gauge-marker"
            x1={marker.from[0]}
            y1={marker.from[1]}
            x2={marker.to[0]}
            y2={marker.to[1]}
            stroke={secondColor}
            strokeWidth={Math.max(2, radius * 0.03)}
            strokeLinecap="round"
          />
        )}
        <text
          className="num-gauge-text"
          y={-radius * 0.08}
          textAnchor="middle"
          fontSize={valueSize}
          fontWeight={600}
          fill={data.value_color ?? theme.foreground}
        >
          {text}
        </text>
        <text
          className="num-gauge-min"
          x={-radius}
          y={small * 1.2}
          textAnchor="start"
          fontSize={small}
          fill={theme.muted}
        >
          {formatValue(min, { value_type })}
        </text>
        <text
          className="num-gauge-max"
          x={radius}
          y={small * 1.2}
          textAnchor="end"
          fontSize={small}
          fill={theme.muted}
        >
          {formatValue(max, { value_type })}
        </text>
        {second && (
          <text
            className="num-gauge-second"
            y={small * 2.6}
            textAnchor="middle"
            fontSize={secondSize}
            fill={secondColor}
          >
            {second}
          </text>
        )}
      </g>
    </svg>
  );
}
