// Its default export: Node's own loader of a CommonJS package sees no named exports in this one.
import jsonPatch, { type Operation } from 'fast-json-patch';
import { toFieldIssues, type FieldIssue } from '../../src/shared/issues';
import { metricsDataSchema, type MetricsData } from '../../src/shared/metrics';
import type { Variant } from '../../src/shared/variants';

// What a write of metrics leaves, and how it is checked and answered: the rules of the metrics
// routes, scripts and the weather feed, applied by the action (actions/write-metrics.ts) to the
// flow it reads under lock.

/** How a metrics write changes the stored data. */
export type MetricsWrite =
  | { kind: 'replace'; data: MetricsData }
  /** Top-level keys of `set` overwrite, keys in `remove` go. */
  | { kind: 'merge'; set: MetricsData; remove: string[] }
  /**
   * RFC 6902 operations applied in turn to the stored data (the original's JSON Patch batches);
   * `at` is where they are in the request, for the path of a refusal.
   */
  | { kind: 'patch'; operations: Operation[]; at: string };

/** Checks the data a write would leave against the flow's variant; issues refuse the write. */
export type MetricsCheck = (variant: Variant, data: MetricsData) => FieldIssue[] | null;

export type MetricsWriteResult =
  | { status: 'updated'; id: string; tag: string; data: MetricsData }
  | { status: 'missing' }
  | { status: 'invalid'; variant: Variant; details: FieldIssue[] };

/** JSON Patch operations that cannot be applied to the data: the one that failed, and why. */
export class PatchRefused extends Error {
  constructor(readonly issues: FieldIssue[]) {
    super(issues[0]?.message ?? 'refused');
  }
}

/** `operations` applied to a copy of `current`; PatchRefused when one cannot be (a failed `test`, a missing path). */
function patched(
  current: MetricsData,
  { operations, at }: Extract<MetricsWrite, { kind: 'patch' }>,
): MetricsData {
  try {
    const result: unknown = jsonPatch.applyPatch(current, operations, true, false).newDocument;
    // What the operations leave is held to what any write may store (an object, the storage limits).
    const shape = metricsDataSchema.safeParse(result);
    if (shape.success) return shape.data;
    throw new PatchRefused(
      toFieldIssues(shape.error).map(({ path, message }) => ({ path: path ? `${at}.${path}` : at, message })),
    );
  } catch (error) {
    if (error instanceof PatchRefused) throw error;
    const index = error instanceof jsonPatch.JsonPatchError ? error.index : undefined;
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? 'refused') : 'refused';
    throw new PatchRefused([{ path: index === undefined ? at : `${at}.${index}`, message }]);
  }
}

/**
 * The data a write leaves: a merge replaces each top-level key it sets whole (no deep merge); a
 * patch applies its operations (PatchRefused when one cannot be).
 */
export function written(current: MetricsData, write: MetricsWrite): MetricsData {
  if (write.kind === 'replace') return write.data;
  if (write.kind === 'patch') return patched(current, write);
  const removed = new Set(write.remove);
  const kept = Object.entries(current).filter(([key]) => !removed.has(key));
  return { ...Object.fromEntries(kept), ...write.set };
}
