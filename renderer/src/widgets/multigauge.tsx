import { useMemo } from 'react';
import { formatValue } from '../format/number';
import { Icon } from '../icons/icon';
import { dialAngle, ringPath } from './gauge';
import { bestGrid, type CellGrid } from './multivalue';
import type { WidgetProps } from './types';
import { fitFontSize } from './value';

type Layout = 'horizontal' | 'vertical' | 'grid';

function labelSizeFor(cellWidth: number, cellHeight: number, fontSize: number): number {
  return Math.max(1, Math.min(fontSize * 0.9, cellHeight * 0.16, cellWidth / 5));
}

function radiusFor(cellWidth: number, cellHeight: number, labelRow: number): number {
  return Math.max(0, Math.min((cellWidth / 2) * 0.92, (cellHeight - labelRow) * 0.92 - 2));
}

function gridFor(layout: Layout, count: number, width: number, height: number, fontSize: number): CellGrid {
  if (layout === 'vertical') return { columns: 1, rows: Math.max(1, count) };
  if (layout === 'horizontal') return { columns: Math.max(1, count), rows: 1 };
  return bestGrid(count, width, height, (w, h) => radiusFor(w, h, labelSizeFor(w, h, fontSize) * 1.3));
}

export function MultigaugeWidget({ data, width, height, theme, fontSize }: WidgetProps<'multigauge'>) {
  const { gauges } = data;
  const grid = gridFor(data.layout ?? 'horizontal', gauges.length, width, height, fontSize);
  const cellWidth = width / grid.columns;
  const cellHeight = height / grid.rows;
  const hasLabel = gauges.some((gauge) => gauge.label || gauge.icon);
  const labelSize = hasLabel ? labelSizeFor(cellWidth, cellHeight, fontSize) : 0;
  const radius = radiusFor(cellWidth, cellHeight, labelSize * 1.3);
  const thickness = radius * 0.28;
  const fill = data.gauge_color ?? theme.accent;

  const drawn = useMemo(() => {
    const start = -Math.PI / 2;
    const inner = radius - thickness;
    return gauges.map((gauge) => {
      const text = formatValue(gauge.value, { value_type: gauge.value_type });
      return {
        text,
        track: ringPath(inner, radius, start, Math.PI / 2),
        value: ringPath(inner, radius, start, dialAngle(gauge.value, 0, gauge.max ?? 100)),
        valueSize: Math.min(fitFontSize(text.length, inner * 1.7, inner * 0.7), radius * 0.5),
      };
    });
  }, [gauges, radius, thickness]);

  const svgHeight = Math.ceil(radius + 2);
  const svgWidth = Math.ceil(radius * 2 + 2);
  return (
    <div
      className="num-multigauge"
      data-columns={grid.columns}
      data-rows={grid.rows}
      data-layout={data.layout ?? 'horizontal'}
      style={{
        width,
        height,
        gridTemplateColumns: `repeat(${grid.columns}, minmax(0, 1fr))`,
        gridTemplateRows: `repeat(${grid.rows}, minmax(0, 1fr))`,
      }}
    >
      {gauges.map((gauge, index) => {
        const parts = drawn[index];
        if (!parts) return null;
        return (
          <div className="num-multigauge-cell" key={index}>
            <svg
              className="num-svg"
              width={svgWidth}
              height={svgHeight}
              viewBox={`0 0 ${svgWidth} ${svgHeight}`}
            >
              <g transform={`translate(${svgWidth / 2},${radius + 1})`}>
                <path d={parts.track} fill={theme.muted} opacity={0.25} />
                <path className="num-gauge-value" d={parts.value} fill={fill} />
                <text
                  y={-2}
                  textAnchor="middle"
                  fontSize={parts.valueSize}
                  fontWeight={600}
                  fill={theme.foreground}
                >
                  {parts.text}
                </text>
              </g>
            </svg>
            {(gauge.label || gauge.icon) && (
              <div
                className="num-multigauge-label num-ellipsis"
                style={{ fontSize: labelSize, color: theme.muted }}
              >
                {gauge.icon && <Icon name={gauge.icon} />}
                {gauge.label && <span className="num-ellipsis">{gauge.label}</span>}
              </div>
            )}
          </div>
        );
      })}
    </div>
  );
}
