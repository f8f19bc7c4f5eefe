import type { WidgetProps } from './types';

/** A table of cells: each a label over a bar filled to `fill` (0 to 1) of its width. */
export function GridWidget({ data, width, height, fontSize, theme }: WidgetProps<'grid'>) {
  const rows = Math.max(1, data.data.length);
  const columns = Math.max(1, ...data.data.map((row) => row.length));
  const gap = Math.max(1, Math.round(Math.min(width / columns, height / rows) * 0.04));
  const cellHeight = (height - gap * (rows - 1)) / rows;
  const font = Math.max(8, Math.round(Math.min(fontSize, cellHeight * 0.45)));
  // A cell without its own background still shows where it is.
  const emptyBackground = `color-mix(in srgb, ${theme.foreground} 8%, transparent)`;

  return (
    <div
      className="lists-widget lists-grid"
      style={{
        width,
        height,
        gap,
        fontSize: font,
        color: theme.foreground,
        gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
        gridTemplateRows: `repeat(${rows}, minmax(0, 1fr))`,
      }}
      role="table"
    >
      {data.data.map((row, rowIndex) => (
        <div key={rowIndex} className="lists-grid-row" role="row">
          {row.map((cell, column) => (
            <div
              key={column}
              className="lists-grid-cell"
              role="cell"
              style={{
                gridRow: rowIndex + 1,
                gridColumn: column + 1,
                background: cell.bg_color ?? emptyBackground,
              }}
            >
              {cell.fill !== undefined && cell.fill > 0 && (
                <div
                  className="lists-grid-fill"
                  style={{ transform: `scaleX(${cell.fill})`, background: cell.fill_color ?? theme.accent }}
                />
              )}
              {cell.label && (
                <span className="lists-grid-label" style={{ color: cell.color ?? theme.foreground }}>
                  {cell.label}
                </span>
              )}
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}
