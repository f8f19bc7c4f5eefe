import type { DataBinding } from '../../../../../src/shared/data-source';
import { send } from '../../../api/client';
import { runBulk } from '../../../ui/bulk';
import { bindingPath } from '../../data-sources/queries';

/**
 * Which data source feeds a flow, and how (docs/data-sources.md): part of the board page's one
 * Save like "Fed by" (source-edits.ts), though it writes a binding, not the board: after the
 * board, with the service's routes as they are. Dropped with the rest by "Discard the changes".
 */
export interface BindingSpec {
  source_id: string;
  query: string;
  range: { seconds: number; step_seconds: number } | null;
  /** Field → expression, as typed: an empty expression leaves its field alone (mappingOf). */
  mapping: Record<string, string>;
}

export interface BindingEdit {
  flowId: string;
  /** The flow's tag, to name it when its binding could not be written. */
  tag: string;
  /** The binding when the edit began (null: none). */
  from: DataBinding | null;
  /** As edited (null: the flow is fed by no source). */
  to: BindingSpec | null;
}

/** The bindings edited, by flow id. */
export type BindingEdits = ReadonlyMap<string, BindingEdit>;

export const NO_BINDINGS: BindingEdits = new Map();

/** The mapping as sent: fields without an expression are not mapped. */
export function mappingOf(mapping: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(mapping)
      .map(([field, expression]) => [field, expression.trim()] as const)
      .filter(([, expression]) => expression !== ''),
  );
}

/** A binding as the panel edits it. */
export const specOf = (binding: DataBinding): BindingSpec => ({
  source_id: binding.source_id,
  query: binding.query,
  range: binding.range,
  mapping: { ...binding.mapping },
});

const sameRange = (a: BindingSpec['range'], b: BindingSpec['range']) =>
  a === b || (a !== null && b !== null && a.seconds === b.seconds && a.step_seconds === b.step_seconds);

const sameMapping = (a: Record<string, string>, b: Record<string, string>) => {
  const left = mappingOf(a);
  const right = mappingOf(b);
  return (
    Object.keys(left).length === Object.keys(right).length &&
    Object.entries(left).every(([field, expression]) => right[field] === expression)
  );
};

/** Whether what is edited is what was saved: then there is nothing to write. */
export function unchanged(from: DataBinding | null, to: BindingSpec | null): boolean {
  if (from === null || to === null) return from === to;
  return (
    from.source_id === to.source_id &&
    from.query === to.query &&
    sameRange(from.range, to.range) &&
    sameMapping(from.mapping, to.mapping)
  );
}

/** Records an edit; back to the binding it began with, it is no edit any more. */
export function bindingEdited(current: BindingEdits, edit: BindingEdit): BindingEdits {
  const next = new Map(current);
  const began = current.get(edit.flowId);
  const from = began ? began.from : edit.from;
  if (unchanged(from, edit.to)) next.delete(edit.flowId);
  else next.set(edit.flowId, { ...edit, from });
  return next;
}

/** Why the draft's binding cannot be saved as it is, or null. */
export function bindingProblem(edit: BindingEdit): string | null {
  if (edit.to === null) return null;
  if (Object.keys(mappingOf(edit.to.mapping)).length === 0)
    return 'Write an expression for at least one field of the widget';
  return null;
}

export interface BindingRequest {
  method: 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
}

/**
 * What one edit sends, in order: a new binding is created for the flow; one removed is deleted;
 * one moved to another source is deleted, then created anew (its source cannot change); one
 * edited otherwise sends only what changed.
 */
export function bindingRequests({ tag, from, to }: BindingEdit): BindingRequest[] {
  const create = (spec: BindingSpec): BindingRequest => ({
    method: 'POST',
    path: '/data-bindings',
    body: {
      source_id: spec.source_id,
      // By tag, as the contract names a flow first (an id is also taken).
      flow: tag,
      query: spec.query,
      range: spec.range,
      mapping: mappingOf(spec.mapping),
    },
  });
  if (from === null) return to === null ? [] : [create(to)];
  const remove: BindingRequest = { method: 'DELETE', path: bindingPath(from.id) };
  if (to === null) return [remove];
  if (to.source_id !== from.source_id) return [remove, create(to)];
  const body: Record<string, unknown> = {};
  if (to.query !== from.query) body.query = to.query;
  if (!sameRange(to.range, from.range)) body.range = to.range;
  if (!sameMapping(to.mapping, from.mapping)) body.mapping = mappingOf(to.mapping);
  return Object.keys(body).length === 0 ? [] : [{ method: 'PATCH', path: bindingPath(from.id), body }];
}

/** Flows whose binding could not be written; the board was saved before them. */
export class BindingsError extends Error {
  constructor(
    message: string,
    /** The flow ids whose edits stay in the draft, to try again. */
    readonly failed: readonly string[],
  ) {
    super(message);
  }
}

/** Writes each flow's edit in turn; the flows that failed are named, and kept by id. */
export async function writeBindings(edits: BindingEdits): Promise<void> {
  const all = [...edits.values()];
  const outcome = await runBulk(
    all,
    (edit) => edit.tag,
    async (edit) => {
      for (const { method, path, body } of bindingRequests(edit)) await send(path, { method, body });
    },
  );
  if (outcome.failed.length === 0) return;
  const failed = new Set(outcome.failed.map((failure) => failure.name));
  throw new BindingsError(
    `The board was saved, but the data source of ${outcome.failed
      .map((failure) => `${failure.name} (${failure.reason})`)
      .join('; ')} could not be changed`,
    all.filter((edit) => failed.has(edit.tag)).map((edit) => edit.flowId),
  );
}
