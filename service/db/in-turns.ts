/** Items handled in one turn of the event loop (inTurns). */
const PER_TURN = 16;

/**
 * Calls `each` on every item, PER_TURN of them per turn of the event loop. Used to answer the
 * writes of a batch: what each answered write does next (its reply, its events) runs before the
 * loop's next turn, so a whole batch answered at once would hold the loop for all of them.
 */
export function inTurns<T>(items: readonly T[], each: (item: T) => void): void {
  for (const item of items.slice(0, PER_TURN)) each(item);
  if (items.length > PER_TURN) setImmediate(() => inTurns(items.slice(PER_TURN), each));
}
