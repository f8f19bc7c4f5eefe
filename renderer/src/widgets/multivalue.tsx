import { useMemo } from 'react';
import { formatValue } from '../format/number';
import { Icon } from '../icons/icon';
import type { WidgetProps } from './types';
import { fitTextSize } from './value';

export interface CellGrid {
  columns: number;
  rows: number;
}

/**
 * The columns x rows split of `count` cells that gives each cell's content the largest font:
 * a single row while the cells are wide enough, a grid once they get crowded.
 */
export function bestGrid(
  count: number,
  width: number,
  height: number,
  fit: (cellWidth: number, cellHeight: number) => number,
): CellGrid {
  let best: CellGrid = { columns: Math.max(1, count), rows: 1 };
  let bestSize = -1;
  for (let columns = 1; columns <= Math.max(1, count); columns++) {
    const rows = Math.max(1, Math.ceil(count / columns));
    // A column count that leaves a whole row empty is never better than one fewer.
    if (columns > 1 && Math.ceil(count / (columns - 1)) === rows) continue;
    const size = fit(width / columns, height / rows);
    if (size > bestSize) {
      bestSize = size;
      best = { columns, rows };
    }
  }
  return best;
}

export function MultivalueWidget({ data, width, height, theme, fontSize }: WidgetProps<'multivalue'>) {
  const cells = useMemo(
    () =>
      data.values.map((item) => ({
        text: formatValue(item.value, item),
        label: item.label,
        color: item.color,
        labelColor: item.label_color,
        icon: item.icon,
      })),
    [data.values],
  );
  const widest = useMemo(
    () => cells.reduce((best, cell) => (cell.text.length > best.length ? cell.text : best), '0'),
    [cells],
  );
  const hasIcon = cells.some((cell) => cell.icon);
  const hasLabel = cells.some((cell) => cell.label);

  const sizes = (cellWidth: number, cellHeight: number) => {
    const label = hasLabel ? Math.max(1, Math.min(fontSize, cellHeight * 0.22, cellWidth / 6)) : 0;
    const value = fitTextSize(
      widest,
      theme.fontFamily,
      cellWidth * 0.9,
      (cellHeight - label * 1.3) * 0.9,
      hasIcon ? 1.2 : 0,
    );
    return { label, value };
  };
  const grid = bestGrid(cells.length, width, height, (w, h) => sizes(w, h).value);
  const { label: labelSize, value: valueSize } = sizes(width / grid.columns, height / grid.rows);

  return (
    <div
      className="num-multivalue"
      data-columns={grid.columns}
      data-rows={grid.rows}
      style={{
        width,
        height,
        gridTemplateColumns: `repeat(${grid.columns}, minmax(0, 1fr))`,
        gridTemplateRows: `repeat(${grid.rows}, minmax(0, 1fr))`,
      }}
    >
      {cells.map((cell, index) => (
        <div className="num-multivalue-cell" key={index}>
          <div
            className="num-multivalue-value"
            style={{ fontSize: valueSize, color: cell.color ?? theme.foreground }}
          >
            {cell.icon && <Icon name={cell.icon} size="0.8em" />}
            <span>{cell.text}</span>
          </div>
          {cell.label && (
            <div
              className="num-multivalue-label num-ellipsis"
              style={{ fontSize: labelSize, color: cell.labelColor ?? theme.muted }}
            >
              {cell.label}
            </div>
          )}
        </div>
      ))}
    </div>
  );
}
