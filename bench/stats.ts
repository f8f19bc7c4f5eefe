/** The q-th quantile (0..1) of `values`, nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

export function formatMs(value: number): string {
  return `${value.toFixed(1)} ms`;
}

/** Runs `task` from `concurrency` loops until `seconds` pass; returns how many completed per second. */
export async function throughput(
  seconds: number,
  concurrency: number,
  task: () => Promise<void>,
): Promise<number> {
  const end = performance.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        await task();
        done += 1;
      }
    }),
  );
  return done / seconds;
}
