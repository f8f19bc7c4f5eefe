import { send } from '../../../api/client';
import { runBulk } from '../../../ui/bulk';

/**
 * Which script feeds a flow, as the board's draft has it ("Fed by"): part of the board page's
 * one Save like the rest (docs/console.md, "One save model"), though it changes a script, not
 * the board: written after the board, with the service's routes as they are.
 */
export interface SourceEdit {
  flowId: string;
  /** The flow's tag, to name it when it could not be changed. */
  tag: string;
  /** The script that fed it when the edit began (null: data pushed to it). */
  from: string | null;
  /** The script chosen (null: none, data pushed to it). */
  to: string | null;
}

/** The sources edited, by flow id. */
export type SourceEdits = ReadonlyMap<string, SourceEdit>;

export const NO_SOURCES: SourceEdits = new Map();

/** Records a choice; back to the script it began with, it is no edit any more. */
export function sourceEdited(current: SourceEdits, edit: SourceEdit): SourceEdits {
  const next = new Map(current);
  const from = current.get(edit.flowId)?.from ?? edit.from;
  if (edit.to === from) next.delete(edit.flowId);
  else next.set(edit.flowId, { ...edit, from });
  return next;
}

/**
 * What one edit sends, in order (`PATCH /scripts/:id {flow_id}`): the script that fed the flow
 * lets it go, then the chosen one takes it (which also takes it off any flow it fed before).
 */
export function sourceRequests({
  flowId,
  from,
  to,
}: SourceEdit): { script: string; flow_id: string | null }[] {
  return [
    ...(from === null ? [] : [{ script: from, flow_id: null }]),
    ...(to === null ? [] : [{ script: to, flow_id: flowId }]),
  ];
}

/** Flows whose script could not be changed; the board was saved before them. */
export class SourcesError extends Error {
  constructor(
    message: string,
    /** The flow ids whose edits stay in the draft, to try again. */
    readonly failed: readonly string[],
  ) {
    super(message);
  }
}

/** Writes each flow's edit in turn; the flows that failed are named, and kept by id. */
export async function writeSources(edits: SourceEdits): Promise<void> {
  const all = [...edits.values()];
  const outcome = await runBulk(
    all,
    (edit) => edit.tag,
    async (edit) => {
      for (const { script, flow_id } of sourceRequests(edit))
        await send(`/scripts/${encodeURIComponent(script)}`, { method: 'PATCH', body: { flow_id } });
    },
  );
  if (outcome.failed.length === 0) return;
  const failed = new Set(outcome.failed.map((failure) => failure.name));
  throw new SourcesError(
    `The board was saved, but the script feeding ${outcome.failed
      .map((failure) => `${failure.name} (${failure.reason})`)
      .join('; ')} could not be changed`,
    all.filter((edit) => failed.has(edit.tag)).map((edit) => edit.flowId),
  );
}
