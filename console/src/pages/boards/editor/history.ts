/**
 * An undo history of immutable states: `present` is what the editor shows, `past` what undo
 * returns to (newest last), `future` what redo brings back. A change after an undo drops the
 * future, as in every editor. Bounded, so a day of editing cannot grow without end.
 */
export interface History<T> {
  past: readonly T[];
  present: T;
  future: readonly T[];
}

/** Undo steps kept: far more than anyone walks back through, few enough to cost nothing. */
const DEPTH = 200;

export const historyOf = <T>(present: T): History<T> => ({ past: [], present, future: [] });

export function record<T>(history: History<T>, next: T): History<T> {
  if (next === history.present) return history;
  return { past: [...history.past, history.present].slice(-DEPTH), present: next, future: [] };
}

export function undo<T>(history: History<T>): History<T> {
  const previous = history.past.at(-1);
  if (previous === undefined) return history;
  return { past: history.past.slice(0, -1), present: previous, future: [history.present, ...history.future] };
}

export function redo<T>(history: History<T>): History<T> {
  const [next, ...rest] = history.future;
  if (next === undefined) return history;
  return { past: [...history.past, history.present], present: next, future: rest };
}
