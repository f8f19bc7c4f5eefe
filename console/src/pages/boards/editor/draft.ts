import type { Board } from '../../../../../src/shared/board';
import {
  toContentSave,
  type BoardContent,
  type BoardContentSave,
  type ContentWidget,
} from '../../../../../src/shared/board-content';
import type { Variant } from '../../../../../src/shared/variants';
import type { CustomCode } from '../../../../../src/shared/web-content';
import type { Widget } from '../../../../../src/shared/widget';

/**
 * A widget as the editor holds it: what a save sends, plus a `key` that names it in the editor
 * (its id once saved; a made-up one before), so selection and undo follow it across saves.
 */
export interface DraftWidget {
  key: string;
  id?: string;
  flow_id: string;
  variant: Variant;
  column: number;
  row: number;
  width: number;
  height: number;
  background: Widget['background'];
  /** A custom widget's own code (the Code panel); null for every other variant. */
  code: CustomCode | null;
  /**
   * The tag of the flow the save creates for it (its `flow_id` is empty until then): flows are
   * made with the board, never before, so a board left unsaved leaves none behind.
   */
  new_flow?: string;
}

export type Layout = readonly DraftWidget[];

export function layoutOf(widgets: readonly Widget[]): Layout {
  return widgets.map(({ id, flow_id, variant, column, row, width, height, background, code }) => ({
    key: id,
    id,
    flow_id,
    variant,
    column,
    row,
    width,
    height,
    background,
    code,
  }));
}

let made = 0;
/** A key for a widget not saved yet: never an id (ids have no colon). */
export const newKey = () => `new:${++made}`;

/**
 * What `PUT /boards/:id/content` is sent: the settings as loaded with the edited ones over them,
 * and the widgets in the editor's order, which is their drawing order.
 */
export function saveOf(
  base: BoardContent,
  settings: Partial<Board> | null,
  layout: Layout,
): BoardContentSave {
  const loaded = toContentSave(base);
  return {
    updated_at: loaded.updated_at,
    board: { ...loaded.board, ...settings },
    widgets: layout.map(({ key: _key, new_flow, flow_id, ...widget }, index): ContentWidget => ({
      ...widget,
      ...(new_flow === undefined ? { flow_id } : { flow_tag: new_flow }),
      in_board_index: index,
    })),
  };
}

/** The ids of the flows a save made, by tag: the answer lists the widgets in the order sent. */
export function madeFlows(sent: Layout, saved: readonly Widget[]): Map<string, string> {
  const made = new Map<string, string>();
  sent.forEach((widget, index) => {
    const flowId = saved[index]?.flow_id;
    if (widget.new_flow !== undefined && flowId !== undefined) made.set(widget.new_flow, flowId);
  });
  return made;
}

/**
 * A layout of the history brought up to a save: widgets created by it get the ids the service
 * gave them (the answer lists them in the order sent), ids the save deleted are dropped, so an
 * undo past the save and a second save recreate them instead of naming what no longer exists;
 * widgets of flows the save made name those flows.
 */
export function afterSave(layout: Layout, sent: Layout, saved: readonly Widget[]): Layout {
  const ids = new Map(sent.map((widget, index) => [widget.key, saved[index]?.id]));
  const kept = new Set(saved.map((widget) => widget.id));
  const made = madeFlows(sent, saved);
  return layout.map((shown) => {
    // A widget of a flow the save made shows that flow now, in every step of the history.
    const flowId = shown.new_flow === undefined ? undefined : made.get(shown.new_flow);
    const { new_flow: _made, ...rest } = shown;
    const widget = flowId === undefined ? shown : { ...rest, flow_id: flowId };
    const id = widget.id ?? ids.get(widget.key);
    return id === widget.id && (id === undefined || kept.has(id))
      ? widget
      : { ...widget, id: id !== undefined && kept.has(id) ? id : undefined };
  });
}
