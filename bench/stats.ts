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

/**
 * Runs `task` from `concurrency` loops until `seconds` pass; returns how many completed per second
 * (over the time until the last loop's task ended, tasks still running at the deadline included).
 */
export async function throughput(
  seconds: number,
  concurrency: number,
  task: () => Promise<void>,
): Promise<number> {
  const start = performance.now();
  const end = start + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        await task();
        done += 1;
      }
    }),
  );
  return (done * 1000) / (performance.now() - start);
}

/** Rows of cells as a plain-text table: columns padded to their widest cell, the first row a heading. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  const line = (row: readonly string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  const [heading, ...body] = rows;
  if (!heading) return '';
  return [line(heading), widths.map((width) => '-'.repeat(width)).join('  '), ...body.map(line)].join('\n');
}
