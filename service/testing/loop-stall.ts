// Shared by the tests and benches of reads kept off the event loop (db/aside-reader.ts).
/**
 * The longest the event loop of this process went without running a 2 ms timer while `work` ran,
 * in ms, beside `work`'s answer. Counted up to the end: a read that holds the loop until it is done
 * gives the timer no turn before it (monitorEventLoopDelay would see nothing of it).
 */
export async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const tick = () => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  };
  const timer = setInterval(tick, 2);
  try {
    const result = await work();
    tick();
    return { result, stallMs };
  } finally {
    clearInterval(timer);
  }
}
