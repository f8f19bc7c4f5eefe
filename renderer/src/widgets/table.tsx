import { useMemo } from 'react';
import type { VariantMetrics } from '../../../src/shared/metrics';
import { formatValue } from '../format/number';
import { Icon } from '../icons/icon';
import { TableSparkline } from './table-sparkline';
import type { WidgetProps } from './types';

type Cell = VariantMetrics['table']['cells'][number][number];
type Alignment = NonNullable<Cell['alignment']>;

const ROW_SPACING = 1.6;
const MIN_FONT = 8;

function alignmentOf(cell: Cell | undefined): Alignment {
  if (cell?.alignment) return cell.alignment;
  // Numbers line up on their last digit, as in a spreadsheet.
  return typeof cell?.value === 'number' ? 'right' : 'left';
}

/** Font and row sizes, and how many whole rows fit under the headers. */
function tableLayout(height: number, fontSize: number, hasHeaders: boolean, rowCount: number) {
  const lines = (hasHeaders ? 1 : 0) + Math.min(1, rowCount);
  let font = Math.round(fontSize * 0.9);
  // A small box still shows the headers and one row rather than nothing.
  if (lines > 0 && lines * Math.round(font * ROW_SPACING) > height) {
    font = Math.max(MIN_FONT, Math.floor(height / lines / ROW_SPACING));
  }
  const rowHeight = Math.round(font * ROW_SPACING);
  const headerHeight = hasHeaders ? rowHeight : 0;
  const visible = Math.max(0, Math.min(rowCount, Math.floor((height - headerHeight) / rowHeight)));
  return { font, rowHeight, visible };
}

function TableCell({ cell, color }: { cell: Cell | undefined; color: string }) {
  if (!cell) return <td />;
  const hasValue = cell.value !== null || !cell.sparkline;
  const text = hasValue ? formatValue(cell.value, { value_type: cell.value_type }) : '';
  return (
    <td style={{ textAlign: alignmentOf(cell), color: cell.color }} title={text || undefined}>
      <span className="lists-table-cell">
        {cell.icon && <Icon name={cell.icon} />}
        {hasValue && <span className="lists-table-value">{text}</span>}
        {cell.sparkline && cell.sparkline.length > 1 && (
          <TableSparkline values={cell.sparkline} color={cell.color ?? color} />
        )}
      </span>
    </td>
  );
}

/** Rows of cells under optional headers; rows that do not fit whole are left out. */
export function TableWidget({ data, width, height, fontSize, theme }: WidgetProps<'table'>) {
  const headers = data.headers ?? [];
  const columns = useMemo(
    () => data.cells.reduce((most, row) => Math.max(most, row.length), headers.length),
    [data.cells, headers.length],
  );
  const { font, rowHeight, visible } = tableLayout(height, fontSize, headers.length > 0, data.cells.length);
  const rows = data.cells.slice(0, visible);
  const indexes = Array.from({ length: columns }, (_, index) => index);

  return (
    <div
      className="lists-widget lists-table"
      style={{ width, height, fontSize: font, color: theme.foreground }}
      data-rows-shown={rows.length}
    >
      <table>
        {headers.length > 0 && (
          <thead>
            <tr style={{ height: rowHeight, color: theme.muted }}>
              {indexes.map((column) => (
                <th key={column} style={{ textAlign: alignmentOf(data.cells[0]?.[column]) }}>
                  {headers[column] ?? ''}
                </th>
              ))}
            </tr>
          </thead>
        )}
        <tbody>
          {rows.map((row, rowIndex) => (
            <tr key={rowIndex} style={{ height: rowHeight }}>
              {indexes.map((column) => (
                <TableCell key={column} cell={row[column]} color={theme.accent} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
