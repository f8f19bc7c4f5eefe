// The load of bench/service: metric writes (or notification creations) at a number in flight for
// a while against one process, with a GET /health asked beside them one after another and the
// process's event-loop delay over the same window (bench/loop-probe.ts); and the raw SQLite floor
// (bench/sqlite-floor.ts) run for the same while in a process of its own.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { apiRequest } from './processes';
import type { LoopDelay, Spawned } from './spawned';
import { throughput } from './stats';

const SQLITE_FLOOR = fileURLToPath(new URL('./sqlite-floor.ts', import.meta.url));
/** The pause between one /health answer and the next question. */
const HEALTH_GAP_MS = 20;

export type LoadKind = 'notifications' | 'metrics';

export interface Round {
  perS: number;
  /** Each GET /health's time to its answer, asked beside the load. */
  healthMs: number[];
  loop: LoopDelay;
}

/** Flows the metric writes go to in turn, as many as the raw SQLite floor's: a fleet writes many. */
const WRITE_FLOWS = 100;
let metricValue = 0;

/** Creates the flows the metric writes go to, through the service's API. */
export async function createWriteFlows(url: string, token: string): Promise<void> {
  for (let n = 0; n < WRITE_FLOWS; n++) {
    await apiRequest(url, token, 'POST', '/flows', { tag: `bench_write_${n}`, variant: 'value' });
  }
}

/** One request of the load, the same to the service and to the floor. */
export function loadTask(url: string, token: string, kind: LoadKind): () => Promise<void> {
  return async () => {
    if (kind === 'notifications') {
      await apiRequest(url, token, 'POST', '/flows/bench_cpu/notifications', {
        title: 'Bench',
        message: 'rate',
        duration: 1,
      });
    } else {
      metricValue += 1;
      const tag = `bench_write_${metricValue % WRITE_FLOWS}`;
      await apiRequest(url, token, 'PUT', `/flows/${tag}/metrics`, { value: metricValue });
    }
  };
}

/** Asks `url`/health one after another until `done` resolves; the time of each. */
async function healthBeside(url: string, done: Promise<unknown>): Promise<number[]> {
  let over = false;
  void done.then(() => (over = true));
  const times: number[] = [];
  while (!over) {
    const started = performance.now();
    const response = await fetch(`${url}/health`);
    await response.arrayBuffer();
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, HEALTH_GAP_MS));
  }
  return times;
}

/** `kind` requests from `inFlight` loops for `seconds` against `target`, measured as a Round. */
export async function loadRound(
  target: Spawned,
  token: string,
  kind: LoadKind,
  inFlight: number,
  seconds: number,
): Promise<Round> {
  target.resetLoop();
  const load = throughput(seconds, inFlight, loadTask(target.url, token, kind));
  const [perS, healthMs] = await Promise.all([load, healthBeside(target.url, load)]);
  return { perS, healthMs, loop: await target.loopDelay() };
}

/** Metric-shaped writes/s of the raw node:sqlite group-commit loop on `file`, for `seconds`. */
export async function sqliteFloorRound(file: string, seconds: number): Promise<number> {
  const { stdout } = await promisify(execFile)(process.execPath, [SQLITE_FLOOR, file, String(seconds)]);
  return (JSON.parse(stdout) as { writesPerS: number }).writesPerS;
}
