// One shape for every bench's figures: each figure beside the floor measured in the same run, their
// ratio and the target. A bench prints its own table; when WALLBOARD_BENCH_REPORT names a file, it
// also appends its figures there as one JSON line, which `npm run bench` (bench/all.ts) gathers
// into one table of every bench.
import { appendFile } from 'node:fs/promises';
import { table } from './stats';

export interface Figure {
  /** What was measured, as a reader of the table says it ("metric writes/s at 64 in flight"). */
  name: string;
  value: number;
  /** The floor's value of the same figure in the same run; absent when there is none to run. */
  floor?: number;
  /** "ms", "/s", "MB", "%", "kB"... */
  unit: string;
  /** The target as words ("ratio >= 0.7", "< 10 ms"); absent when the figure is context only. */
  target?: string;
  /** Whether the target is met; absent with no target. */
  met?: boolean;
}

/** The environment variable naming the file where figures are gathered. */
export const REPORT_FILE_VARIABLE = 'WALLBOARD_BENCH_REPORT';

const number = (value: number) =>
  Number.isInteger(value) || Math.abs(value) >= 100
    ? value.toFixed(0)
    : Math.abs(value) >= 10
      ? value.toFixed(1)
      : value.toFixed(2);

/** The ratio of a figure to its floor, as printed. */
export function ratioOf(figure: Figure): string {
  return figure.floor === undefined || figure.floor === 0 ? '' : `${number(figure.value / figure.floor)} x`;
}

/** Figures as one plain-text table, `bench` naming where each comes from when several are gathered. */
export function figuresTable(figures: readonly (Figure & { bench?: string })[]): string {
  const withBench = figures.some((figure) => figure.bench !== undefined);
  return table([
    [...(withBench ? ['bench'] : []), 'figure', 'value', 'floor', 'ratio', 'target', 'met'],
    ...figures.map((figure) => [
      ...(withBench ? [figure.bench ?? ''] : []),
      figure.name,
      `${number(figure.value)} ${figure.unit}`,
      figure.floor === undefined ? '' : `${number(figure.floor)} ${figure.unit}`,
      ratioOf(figure),
      figure.target ?? '',
      figure.met === undefined ? '' : figure.met ? 'yes' : 'NO',
    ]),
  ]);
}

/** Prints a bench's figures and, when asked by the environment, appends them for bench/all.ts. */
export async function report(bench: string, figures: readonly Figure[]): Promise<void> {
  process.stdout.write(`${figuresTable(figures)}\n`);
  const file = process.env[REPORT_FILE_VARIABLE];
  if (file) await appendFile(file, `${JSON.stringify({ bench, figures })}\n`);
}
