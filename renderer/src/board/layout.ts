import type { BoardExport } from '../../../src/shared/board-export';
import type { FontSize } from '../../../src/shared/common';

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Height of the board-name bar, as a share of the board's native height. */
const NAME_BAR_SHARE = 0.06;
/** Base font size as a share of the native height: 20 px on a 1080-pixel board. */
const BASE_FONT_SHARE = 20 / 1080;
const FONT_SCALE: Record<FontSize, number> = { small: 0.85, normal: 1, large: 1.2 };

export interface BoardGeometry {
  width: number;
  height: number;
  /** The name bar, when the board shows its name. */
  nameBar: Box | null;
  /** The area the grid covers. */
  grid: Box;
  cellWidth: number;
  cellHeight: number;
  fontSize: number;
  titleFontSize: number;
}

export function boardGeometry(
  board: Pick<
    BoardExport,
    'size' | 'columns' | 'rows' | 'display_board_name' | 'font_size' | 'widget_title_size'
  >,
): BoardGeometry {
  const [width, height] = board.size;
  const barHeight = board.display_board_name ? Math.round(height * NAME_BAR_SHARE) : 0;
  const grid = { left: 0, top: barHeight, width, height: height - barHeight };
  const base = Math.max(8, height * BASE_FONT_SHARE);
  return {
    width,
    height,
    nameBar: barHeight ? { left: 0, top: 0, width, height: barHeight } : null,
    grid,
    cellWidth: grid.width / board.columns,
    cellHeight: grid.height / board.rows,
    fontSize: Math.round(base * FONT_SCALE[board.font_size]),
    titleFontSize: Math.round(base * 0.9 * FONT_SCALE[board.widget_title_size]),
  };
}

/**
 * A widget's outer box in native pixels. Cells are split at whole pixels (so neighbours meet
 * exactly), then `margin` is taken off every side: two widgets side by side are 2 x margin apart,
 * and a widget on the edge is one margin in from it. Positions count from 0.
 */
export function widgetBox(
  geometry: BoardGeometry,
  widget: { column: number; row: number; width: number; height: number },
  margin: number,
): Box {
  const x0 = Math.round(widget.column * geometry.cellWidth);
  const x1 = Math.round((widget.column + widget.width) * geometry.cellWidth);
  const y0 = Math.round(widget.row * geometry.cellHeight);
  const y1 = Math.round((widget.row + widget.height) * geometry.cellHeight);
  return {
    left: geometry.grid.left + x0 + margin,
    top: geometry.grid.top + y0 + margin,
    width: Math.max(0, x1 - x0 - 2 * margin),
    height: Math.max(0, y1 - y0 - 2 * margin),
  };
}

/** The scale that fits a native size into a screen without distortion, and the letterbox offsets. */
export function fitToScreen(
  native: { width: number; height: number },
  screen: { width: number; height: number },
) {
  const scale = Math.min(screen.width / native.width, screen.height / native.height);
  return {
    scale,
    left: (screen.width - native.width * scale) / 2,
    top: (screen.height - native.height * scale) / 2,
  };
}
