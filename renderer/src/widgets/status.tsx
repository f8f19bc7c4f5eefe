import { useMemo } from 'react';
import type { WidgetProps } from './types';

export interface GridShape {
  columns: number;
  rows: number;
  cellWidth: number;
  cellHeight: number;
}

/**
 * Columns and rows for `count` equal cells in the box, picked so the largest cell of the given
 * width:height aspect that fits each slot is as big as it can be.
 */
export function bestGrid(count: number, width: number, height: number, aspect: number): GridShape {
  let best: GridShape = { columns: 1, rows: Math.max(1, count), cellWidth: width, cellHeight: height };
  let bestScore = -1;
  for (let columns = 1; columns <= Math.max(1, count); columns += 1) {
    const rows = Math.ceil(count / columns) || 1;
    const cellWidth = width / columns;
    const cellHeight = height / rows;
    const score = Math.min(cellWidth / aspect, cellHeight);
    if (score > bestScore) {
      bestScore = score;
      best = { columns, rows, cellWidth, cellHeight };
    }
  }
  return best;
}

const LIGHT_NAMES = new Set([
  'white',
  'snow',
  'ivory',
  'beige',
  'linen',
  'wheat',
  'yellow',
  'lightyellow',
  'gold',
  'khaki',
  'lime',
  'lawngreen',
  'chartreuse',
  'greenyellow',
  'aqua',
  'cyan',
  'lightcyan',
  'aquamarine',
  'turquoise',
  'pink',
  'lightpink',
  'orange',
  'silver',
  'lightgray',
  'lightgrey',
  'gainsboro',
  'whitesmoke',
  'lightblue',
  'skyblue',
  'lightgreen',
  'palegreen',
  'springgreen',
  'yellowgreen',
  'moccasin',
]);

function channels(color: string): [number, number, number] | undefined {
  const hex = /^#([0-9a-f]{3,8})$/i.exec(color)?.[1];
  if (hex) {
    const digits =
      hex.length <= 4
        ? [...hex.slice(0, 3)].map((d) => d + d)
        : [hex.slice(0, 2), hex.slice(2, 4), hex.slice(4, 6)];
    const [r = 0, g = 0, b = 0] = digits.map((d) => parseInt(d, 16));
    return [r, g, b];
  }
  const rgb = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/i.exec(color);
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  return undefined;
}

/** Dark or light text, whichever reads on the given background colour. */
export function textColorOn(color: string): string {
  const dark = '#111418';
  const light = '#ffffff';
  const lower = color.trim().toLowerCase();
  if (LIGHT_NAMES.has(lower)) return dark;
  const hsl = /^hsla?\([^,\s]+[\s,]+[\d.]+%[\s,]+([\d.]+)%/i.exec(lower);
  if (hsl) return Number(hsl[1]) > 65 ? dark : light;
  const rgb = channels(lower);
  if (!rgb) return light;
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.35 ? dark : light;
}

/** Coloured tiles, each with its label, sharing the box as evenly as they can. */
export function StatusWidget({ data, width, height, fontSize, theme }: WidgetProps<'status'>) {
  const count = data.statuses.length;
  const shape = useMemo(() => bestGrid(count, width, height, 2), [count, width, height]);
  const gap = Math.max(2, Math.round(Math.min(shape.cellWidth, shape.cellHeight) * 0.06));
  const font = Math.max(8, Math.round(Math.min(fontSize * 1.4, (shape.cellHeight - gap) * 0.38)));

  return (
    <ul
      className="lists-widget lists-status"
      style={{
        width,
        height,
        gap,
        fontSize: font,
        color: theme.foreground,
        gridTemplateColumns: `repeat(${shape.columns}, minmax(0, 1fr))`,
        gridTemplateRows: `repeat(${shape.rows}, minmax(0, 1fr))`,
      }}
    >
      {data.statuses.map((status, index) => (
        <li
          key={index}
          className="lists-status-tile"
          style={{ background: status.color, color: textColorOn(status.color) }}
          title={status.label}
        >
          {status.label && <span>{status.label}</span>}
        </li>
      ))}
    </ul>
  );
}
