import type { ContentData, ContentFlow } from '../../../../../src/shared/board-content';
import type { Variant } from '../../../../../src/shared/variants';
import { dataProblems, parseData } from '../data-editor/data-problems';
import type { DraftWidget, Layout } from './draft';

/**
 * The widgets' data as the board's draft holds it, beside its layout: one edit per flow, kept as
 * the JSON text (what the form writes and the JSON editor shows), so text that is not JSON yet is
 * never lost. Saved with the board, in the same request (`flows` and `data` of the save).
 */
export interface DataEdit {
  /** The flow's tag, which the save names it by. */
  tag: string;
  variant: Variant;
  text: string;
  /** The data as loaded when the edit began: newer data arriving meanwhile is said, not overwritten unseen. */
  from: string | null;
}

/** Edits by flow key (flowKey). */
export type DataEdits = ReadonlyMap<string, DataEdit>;

/** What names a widget's flow in the draft: its id, or `new:<tag>` for a flow the save creates. */
export const flowKey = (widget: Pick<DraftWidget, 'flow_id' | 'new_flow'>): string =>
  widget.new_flow === undefined ? widget.flow_id : `new:${widget.new_flow}`;

/** The edits of the flows the layout shows: those of removed widgets are neither saved nor counted. */
export function shownEdits(layout: Layout, edits: DataEdits): DataEdit[] {
  const keys = new Set(layout.map(flowKey));
  return [...edits].flatMap(([key, edit]) => (keys.has(key) ? [edit] : []));
}

/** Whether any shown edit fails the API's check: the board cannot be saved as it is. */
export const editsInvalid = (layout: Layout, edits: DataEdits): boolean =>
  shownEdits(layout, edits).some((edit) => dataProblems(edit.variant, edit.text).length > 0);

/**
 * The flows a save creates (one per new flow tag the layout shows, with its edited data) and the
 * data it writes to the flows that exist. Text that is not a JSON object is left out: the save is
 * refused before it is sent (editsInvalid).
 */
export function dataOfSave(layout: Layout, edits: DataEdits): { flows: ContentFlow[]; data: ContentData[] } {
  const flows = new Map<string, ContentFlow>();
  const data: ContentData[] = [];
  for (const widget of layout) {
    if (widget.new_flow === undefined || flows.has(widget.new_flow)) continue;
    const parsed = parseData(edits.get(flowKey(widget))?.text ?? '{}');
    flows.set(widget.new_flow, {
      tag: widget.new_flow,
      variant: widget.variant,
      ...(parsed ? { data: parsed } : {}),
    });
  }
  const existing = new Set(
    layout.flatMap((widget) => (widget.new_flow === undefined ? [widget.flow_id] : [])),
  );
  for (const [key, edit] of edits) {
    const parsed = existing.has(key) ? parseData(edit.text) : null;
    if (parsed) data.push({ tag: edit.tag, data: parsed });
  }
  return { flows: [...flows.values()], data };
}

/** The edits left once a save that sent `sent` succeeded: those typed meanwhile stay. */
export function afterDataSave(
  edits: DataEdits,
  sent: DataEdits,
  made: ReadonlyMap<string, string>,
): DataEdits {
  const left = new Map<string, DataEdit>();
  for (const [key, edit] of edits) {
    if (sent.get(key)?.text === edit.text) continue;
    // A new flow's edit now names the flow the save made.
    const tag = key.startsWith('new:') ? key.slice(4) : undefined;
    const id = tag === undefined ? undefined : made.get(tag);
    left.set(id ?? key, edit);
  }
  return left;
}
