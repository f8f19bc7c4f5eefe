import type { GridPlacement } from '../../../../../src/shared/widget';

/** Whether two placements share a cell. */
export function overlaps(a: GridPlacement, b: GridPlacement): boolean {
  return (
    a.column < b.column + b.width &&
    b.column < a.column + a.width &&
    a.row < b.row + b.height &&
    b.row < a.row + a.height
  );
}

/**
 * Where a new widget of `size` goes: the first free spot, reading the grid row by row, shrunk
 * to fit a full board (down to one cell, then over the others at the top left: the operator
 * moves it, nothing is refused).
 */
export function freeSpot(
  grid: { columns: number; rows: number },
  taken: readonly GridPlacement[],
  size: { width: number; height: number },
): GridPlacement {
  let width = Math.min(size.width, grid.columns);
  let height = Math.min(size.height, grid.rows);
  for (;;) {
    for (let row = 0; row + height <= grid.rows; row++) {
      for (let column = 0; column + width <= grid.columns; column++) {
        const spot = { column, row, width, height };
        if (!taken.some((other) => overlaps(spot, other))) return spot;
      }
    }
    if (width === 1 && height === 1) return { column: 0, row: 0, width: 1, height: 1 };
    width = Math.max(1, Math.ceil(width / 2));
    height = Math.max(1, Math.ceil(height / 2));
  }
}

/** A new widget's size: a quarter of the board's width and a third of its height. */
export const newWidgetSize = (grid: { columns: number; rows: number }) => ({
  width: Math.max(1, Math.round(grid.columns / 4)),
  height: Math.max(1, Math.round(grid.rows / 3)),
});

/**
 * The placement moved (or, with `resize`, grown) by one cell in a direction, or null when that
 * would leave the board or cover another widget: the keyboard's way to do what dragging does.
 */
export function nudge(
  placement: GridPlacement,
  direction: 'left' | 'right' | 'up' | 'down',
  resize: boolean,
  grid: { columns: number; rows: number },
  others: readonly GridPlacement[],
): GridPlacement | null {
  const dx = direction === 'left' ? -1 : direction === 'right' ? 1 : 0;
  const dy = direction === 'up' ? -1 : direction === 'down' ? 1 : 0;
  const next = resize
    ? { ...placement, width: placement.width + dx, height: placement.height + dy }
    : { ...placement, column: placement.column + dx, row: placement.row + dy };
  const fits =
    next.column >= 0 &&
    next.row >= 0 &&
    next.width >= 1 &&
    next.height >= 1 &&
    next.column + next.width <= grid.columns &&
    next.row + next.height <= grid.rows;
  return fits && !others.some((other) => overlaps(next, other)) ? next : null;
}
