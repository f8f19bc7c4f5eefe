/**
 * Work waiting for a limited number of slots, shared between accounts (hosted customers) in turn
 * rather than first come first served, so that one account with many runs waiting cannot hold
 * every slot while another's run waits behind all of them.
 *
 * A free slot goes to the waiting account that holds the fewest slots, and among equals to the
 * one whose turn comes first: an account that was just served goes to the back of the line. So
 * while another account waits, an account holds no more slots than it (one each with two slots),
 * and it takes more only when nobody else waits. Within an account, its work goes in the order it
 * came, skipping what may not start yet (`ready`: a script already running waits for itself).
 */
export class FairQueue<T> {
  /** Account → its waiting work, oldest first; the map's order is the accounts' turn. */
  private readonly waiting = new Map<string, T[]>();
  /** Account → the slots it holds now. */
  private readonly holding = new Map<string, number>();

  /** Work waiting, every account's. */
  get size(): number {
    let size = 0;
    for (const items of this.waiting.values()) size += items.length;
    return size;
  }

  /** Slots the account holds now. */
  held(account: string): number {
    return this.holding.get(account) ?? 0;
  }

  push(account: string, item: T): void {
    const items = this.waiting.get(account);
    if (items) items.push(item);
    else this.waiting.set(account, [item]);
  }

  /**
   * Takes the work the next free slot goes to and counts the slot as its account's (give it back
   * with `release`); null when nothing waiting may start.
   */
  take(ready: (item: T) => boolean): { account: string; item: T } | null {
    let chosen: { account: string; index: number; held: number } | null = null;
    for (const [account, items] of this.waiting) {
      const held = this.held(account);
      if (chosen && held >= chosen.held) continue;
      const index = items.findIndex(ready);
      if (index >= 0) chosen = { account, index, held };
    }
    if (!chosen) return null;
    const items = this.waiting.get(chosen.account) ?? [];
    const [item] = items.splice(chosen.index, 1) as [T];
    // Served: to the back of the line, or out of it with nothing left.
    this.waiting.delete(chosen.account);
    if (items.length) this.waiting.set(chosen.account, items);
    this.holding.set(chosen.account, chosen.held + 1);
    return { account: chosen.account, item };
  }

  /** The account's slot is free again. */
  release(account: string): void {
    const held = this.held(account) - 1;
    if (held > 0) this.holding.set(account, held);
    else this.holding.delete(account);
  }

  /** Everything waiting, taken out (the runner stops). */
  drain(): T[] {
    const all = [...this.waiting.values()].flat();
    this.waiting.clear();
    return all;
  }
}
