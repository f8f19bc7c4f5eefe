import 'react-grid-layout/css/styles.css';
import './editor.css';
import { VisuallyHidden } from '@mantine/core';
import { useMemo, useState, type KeyboardEvent } from 'react';
import ReactGridLayout, {
  getCompactor,
  type EventCallback,
  type Layout as GridLayout,
} from 'react-grid-layout';
import type { Board } from '../../../../../src/shared/board';
import { boardGeometry } from '../../../../../renderer/src/board/layout';
import type { DraftWidget, Layout } from './draft';
import { nudge } from './placement';

/** No compaction (a board is not a page that flows up) and no dropping onto another widget. */
const compactor = getCompactor(null, false, true);
const HANDLES = ['se', 'e', 's', 'sw', 'w', 'n', 'ne', 'nw'] as const;
const ARROWS: Record<string, 'left' | 'right' | 'up' | 'down'> = {
  ArrowLeft: 'left',
  ArrowRight: 'right',
  ArrowUp: 'up',
  ArrowDown: 'down',
};

const where = (widget: DraftWidget) =>
  `column ${widget.column + 1}, row ${widget.row + 1}, ${widget.width} by ${widget.height} cells`;

interface LayoutCanvasProps {
  board: Board;
  layout: Layout;
  scale: number;
  /** The flow tag each widget shows, for its name. */
  tagOf: (widget: DraftWidget) => string;
  selected: string | null;
  onSelect: (key: string) => void;
  onChange: (layout: Layout) => void;
  onDelete: (key: string) => void;
  editable: boolean;
}

/**
 * Handles over the drawn board, one per widget on exactly its cells (react-grid-layout with the
 * board's columns and rows at the preview's scale, no gaps: the margins are inside the cells, as
 * the renderer draws them). Dragging moves a widget to other cells, the edges resize it; both
 * snap to cells and stop at the board's edges and at other widgets. The keyboard does the same:
 * arrows move the focused widget a cell, Shift and arrows resize it, Delete removes it.
 */
export function LayoutCanvas(props: LayoutCanvasProps) {
  const { board, layout, scale, tagOf, selected, onSelect, onChange, onDelete, editable } = props;
  const geometry = boardGeometry(board);
  const width = geometry.width * scale;
  const [said, say] = useState('');
  /** What the handle shows when selected, and so where its accessible name starts. */
  const nameOf = (widget: DraftWidget) => `${widget.variant} · ${tagOf(widget)}`;
  const grid: GridLayout = useMemo(
    () =>
      layout.map((widget) => ({
        i: widget.key,
        x: widget.column,
        y: widget.row,
        w: widget.width,
        h: widget.height,
        // A viewer's widgets: no handles to drag or resize them by.
        static: !editable,
      })),
    [layout, editable],
  );

  const place = (key: string, cells: Pick<DraftWidget, 'column' | 'row' | 'width' | 'height'>) => {
    const widget = layout.find((candidate) => candidate.key === key);
    if (!widget) return;
    const moved = { ...widget, ...cells };
    if (where(moved) === where(widget)) return;
    onChange(layout.map((candidate) => (candidate.key === key ? moved : candidate)));
    say(`${widget.variant} widget now at ${where(moved)}.`);
  };
  const dropped: EventCallback = (_layout, _old, item) => {
    if (item) place(item.i, { column: item.x, row: item.y, width: item.w, height: item.h });
  };

  const keys = (widget: DraftWidget) => (event: KeyboardEvent) => {
    if (!editable) return;
    if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      onDelete(widget.key);
      return;
    }
    const direction = ARROWS[event.key];
    if (!direction) return;
    event.preventDefault();
    const others = layout.filter((other) => other.key !== widget.key);
    const next = nudge(widget, direction, event.shiftKey, board, others);
    if (next) place(widget.key, next);
    else say(`The ${widget.variant} widget cannot go further ${direction}: an edge or another widget.`);
  };

  return (
    <div
      className="board-editor-canvas"
      style={{
        position: 'absolute',
        left: 0,
        top: geometry.grid.top * scale,
        width,
        height: geometry.grid.height * scale,
      }}
    >
      <ReactGridLayout
        width={width}
        layout={grid}
        autoSize={false}
        style={{ height: '100%' }}
        gridConfig={{
          cols: board.columns,
          rowHeight: geometry.cellHeight * scale,
          margin: [0, 0],
          containerPadding: [0, 0],
          maxRows: board.rows,
        }}
        dragConfig={{ enabled: editable, bounded: true }}
        resizeConfig={{ enabled: editable, handles: [...HANDLES] }}
        compactor={compactor}
        onDragStart={(_layout, item) => item && onSelect(item.i)}
        onDragStop={dropped}
        onResizeStop={dropped}
      >
        {layout.map((widget) => (
          <div
            key={widget.key}
            className="board-editor-widget"
            data-selected={widget.key === selected}
            data-testid={`editor-widget-${widget.variant}`}
            role="button"
            tabIndex={0}
            aria-pressed={widget.key === selected}
            aria-label={`${nameOf(widget)}, at ${where(widget)}`}
            aria-describedby={editable ? 'board-editor-keys' : undefined}
            onFocus={() => onSelect(widget.key)}
            onMouseDown={() => onSelect(widget.key)}
            onKeyDown={keys(widget)}
          >
            <span className="board-editor-label" aria-hidden>
              {nameOf(widget)}
            </span>
          </div>
        ))}
      </ReactGridLayout>
      <VisuallyHidden id="board-editor-keys">
        Arrow keys move the widget by a cell, Shift and the arrow keys resize it, Delete removes it.
      </VisuallyHidden>
      <VisuallyHidden role="status" aria-live="polite">
        {said}
      </VisuallyHidden>
    </div>
  );
}
