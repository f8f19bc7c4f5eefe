// bench/scripts: runs per second, latency and CPU of the script sandbox (through `ScriptSandbox`
// only), for a trivial script and for the demo board's scripts, one at a time and 2 at once (the
// service's limit); whether the demo board keeps up; beside floors measured in the same run (a
// fresh node:vm context in this process, no isolation, and spawning a bare `node -e 0`). Figures
// through bench/report.ts.
// Usage: npm run bench:scripts -- [--seconds 10] [--floor-seconds 3]
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { Script } from 'node:vm';
import { ANNOUNCER, DEMO_WIDGETS } from '../service/scripts/demo-scripts';
import {
  DEFAULT_LIMITS,
  ScriptSandbox,
  type LibraryHandler,
  type SandboxLimits,
} from '../service/scripts/sandbox';
import { SCRIPT_TIMEOUT_DEFAULT, parseDuration } from '../src/shared/script';
import { report } from './report';
import { formatMs, quantile, throughput } from './stats';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    'floor-seconds': { type: 'string', default: '3' },
  },
});
const SECONDS = Number(values.seconds);
const FLOOR_SECONDS = Number(values['floor-seconds']);
const CONCURRENT = 2; // the service's runner runs at most 2 scripts at once
const TRIVIAL = 'return { value: 1 }';
const LIMITS: SandboxLimits = { ...DEFAULT_LIMITS, timeoutMs: SCRIPT_TIMEOUT_DEFAULT * 1000 };
/** "Well below its interval": a run's p99 under this share of the script's interval. */
const ON_TIME_SHARE = 0.1;
const TICK_MS = 10; // Linux's USER_HZ

interface Figures {
  runsPerSecond: number;
  p50: number;
  p99: number;
  /** CPU of this process and its child processes, per run. */
  cpuMs: number;
}

type SandboxPhase = 'trivial-1' | 'trivial-2' | 'demo-1' | 'demo-2';

/** This bench against the worker-thread + node:vm sandbox, on this machine (see bench/README.md). */
const BEFORE_DATE = '2026-11-23';
const BEFORE: Record<SandboxPhase, Figures> = {
  'trivial-1': { runsPerSecond: 50, p50: 18.8, p99: 39.7, cpuMs: 20.44 },
  'trivial-2': { runsPerSecond: 87, p50: 21.9, p99: 52.1, cpuMs: 20.49 },
  'demo-1': { runsPerSecond: 55, p50: 18.1, p99: 24.0, cpuMs: 20.36 },
  'demo-2': { runsPerSecond: 86, p50: 22.6, p99: 35.5, cpuMs: 21.44 },
};

/** The fields of /proc/<pid>/stat after the command name: [1] ppid, [11..14] utime, stime, cutime, cstime. */
function procStat(pid: number | 'self'): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(') ') + 2).split(' ');
  } catch {
    return null; // ended meanwhile, or no /proc
  }
}

const ticks = (fields: string[], from: number, count: number) =>
  fields.slice(from, from + count).reduce((sum, field) => sum + Number(field), 0);

/**
 * CPU time, in ms, of this process (all its threads) and of its child processes: those that ended
 * and were reaped (cutime, cstime), and those still running, with their own ended children.
 */
function treeCpuMs(): number {
  const usage = process.cpuUsage();
  let total = (usage.user + usage.system) / 1000;
  const self = procStat('self');
  if (!self) return total;
  total += ticks(self, 13, 2) * TICK_MS;
  const byParent = new Map<number, number[][]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const fields = procStat(Number(name));
    if (!fields) continue;
    const parent = Number(fields[1]);
    byParent.set(parent, [...(byParent.get(parent) ?? []), [Number(name), ticks(fields, 11, 4)]]);
  }
  const pending = [process.pid];
  for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
    for (const [child, spent] of byParent.get(pid) ?? []) {
      total += spent! * TICK_MS;
      pending.push(child!);
    }
  }
  return total;
}

/** Busy time of all the machine's CPUs, in ms, whatever runs there. */
function machineBusyMs(): number {
  return cpus().reduce((sum, { times }) => sum + times.user + times.nice + times.sys + times.irq, 0);
}

interface Measured extends Figures {
  runs: number;
  failures: number;
  /** Machine busy CPU per run, anything else running on it included. */
  machineMs: number;
}

/** Runs `task` from `concurrency` loops for `seconds`; a task answers whether its run succeeded. */
async function measure(
  seconds: number,
  concurrency: number,
  task: () => Promise<boolean>,
): Promise<Measured> {
  const latencies: number[] = [];
  let failures = 0;
  const cpuBefore = treeCpuMs();
  const machineBefore = machineBusyMs();
  const runsPerSecond = await throughput(seconds, concurrency, async () => {
    const start = performance.now();
    if (!(await task())) failures += 1;
    latencies.push(performance.now() - start);
  });
  const runs = latencies.length;
  return {
    runs,
    failures,
    runsPerSecond,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    cpuMs: (treeCpuMs() - cpuBefore) / runs,
    machineMs: (machineBusyMs() - machineBefore) / runs,
  };
}

/** notifications.post answers true, http a canned answer: nothing leaves this process. */
const library: LibraryHandler = async (call) => {
  switch (`${call.library}.${call.method}`) {
    case 'notifications.post':
      return true;
    case 'http.get':
      return { status: 200, headers: { 'content-type': 'application/json' }, text: '{"value":1}' };
    case 'http.getJson':
      return { value: 1 };
  }
  throw new Error(`${call.library}.${call.method} is not in this bench`);
};

const sandbox = new ScriptSandbox({ idle: CONCURRENT });

async function sandboxRun(code: string, previous = '{}'): Promise<string | null | undefined> {
  const result = await sandbox.run(code, previous, LIMITS, library).result;
  return result.outcome === 'ok' ? result.result : undefined;
}

const trivial = async () => (await sandboxRun(TRIVIAL)) === '{"value":1}';

// The demo's scripts, each fed its own last result as `previous`, as the service does.
const demo = [...DEMO_WIDGETS.flatMap((widget) => (widget.script ? [widget.script] : [])), ANNOUNCER].map(
  (script) => ({
    name: script.name,
    code: script.code,
    intervalMs: parseDuration(script.interval) ?? Number.NaN,
    previous: '{}',
    latencies: [] as number[],
  }),
);
let next = 0;
async function demoRun(): Promise<boolean> {
  const script = demo[next++ % demo.length]!;
  const start = performance.now();
  const result = await sandboxRun(script.code, script.previous);
  script.latencies.push(performance.now() - start);
  if (typeof result === 'string') script.previous = result;
  return result !== undefined;
}

/** In this process, a fresh context and no isolation: what running the code costs at least. */
async function vmRun(): Promise<boolean> {
  const value: unknown = await new Script(`(async function () {${TRIVIAL}\n})()`).runInNewContext({});
  return JSON.stringify(value) === '{"value":1}';
}

/** A process that does nothing: what starting one costs at least. */
function spawnRun(): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore', env: {} });
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });
}

// Warm-up: code caches, JIT, whatever the sandbox prepares on its first runs.
for (let i = 0; i < 10; i++) await trivial();
for (let i = 0; i < demo.length; i++) await demoRun();
for (let i = 0; i < 100; i++) await vmRun();
for (let i = 0; i < 3; i++) await spawnRun();
for (const script of demo) script.latencies.length = 0;

const trivialOne = await measure(SECONDS, 1, trivial);
const trivialTwo = await measure(SECONDS, CONCURRENT, trivial);
const demoOne = await measure(SECONDS, 1, demoRun);
// Per-script latencies of the demo are those at concurrency 2: the service's mode, saturated.
for (const script of demo) script.latencies.length = 0;
const demoTwo = await measure(SECONDS, CONCURRENT, demoRun);
const measured: Record<SandboxPhase, Measured> = {
  'trivial-1': trivialOne,
  'trivial-2': trivialTwo,
  'demo-1': demoOne,
  'demo-2': demoTwo,
};
const vmFloor = await measure(FLOOR_SECONDS, 1, vmRun);
const spawnFloor = await measure(FLOOR_SECONDS, 1, spawnRun);

// The report.
const rate = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(value < 10 ? 2 : 0));
const ms = (value: number) => (Number.isNaN(value) ? '-' : formatMs(value));
const cpu = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(2));
const times = (value: number, base: number) => {
  const ratio = value / base;
  return Number.isFinite(ratio) ? `${ratio < 10 ? ratio.toPrecision(2) : ratio.toFixed(0)} x` : '-';
};
const row = (cells: string[]) =>
  cells.map((cell, i) => (i === 0 ? cell.padEnd(34) : cell.padStart(i === 5 ? 16 : 10))).join(' ');
const figures = (label: string, m: Measured, failed = m.failures > 0 ? `  (${m.failures} failed)` : '') =>
  row([label, rate(m.runsPerSecond), ms(m.p50), ms(m.p99), cpu(m.cpuMs), cpu(m.machineMs)]) + failed;
const before = (b: Figures) =>
  `${rate(b.runsPerSecond)} runs/s, p50 ${ms(b.p50)}, p99 ${ms(b.p99)}, ${cpu(b.cpuMs)} CPU-ms`;
const LABELS: Record<SandboxPhase, string> = {
  'trivial-1': 'trivial script, one at a time',
  'trivial-2': `trivial script, ${CONCURRENT} at once`,
  'demo-1': `demo scripts, one at a time`,
  'demo-2': `demo scripts, ${CONCURRENT} at once`,
};
const phases = Object.keys(LABELS) as SandboxPhase[];

const required = demo.reduce((sum, script) => sum + 1000 / script.intervalMs, 0);
const capacity = measured['demo-2'].runsPerSecond;
const cpuShare = (required * measured['demo-2'].cpuMs) / 1000; // of one CPU
const lateness = demo.map((script) => ({ ...script, p99: quantile(script.latencies, 0.99) }));
const worst = lateness.reduce((a, b) => (b.p99 / b.intervalMs > a.p99 / a.intervalMs ? b : a));
const onTime = lateness.every((script) => script.p99 < script.intervalMs * ON_TIME_SHARE);
const failures = phases.reduce((sum, phase) => sum + measured[phase].failures, 0);
const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
const t1 = measured['trivial-1'];

const lines = [
  `bench/scripts (${SECONDS} s per sandbox phase, ${FLOOR_SECONDS} s per floor; ${availableParallelism()} CPUs; Node ${process.version})`,
  'CPU-ms/run: this process (all threads) and its child processes; machine: busy time of all CPUs, anything else included',
  '',
  row(['', 'runs/s', 'p50', 'p99', 'CPU-ms/run', 'machine CPU-ms']),
  ...phases.map((phase) => figures(LABELS[phase], measured[phase])),
  figures('floor: node:vm, fresh context', vmFloor),
  figures('floor: spawn node -e 0 until exit', spawnFloor),
  '',
  `before (worker + vm, measured ${BEFORE_DATE}):`,
  ...phases.map((phase) => `  ${LABELS[phase].padEnd(32)} ${before(BEFORE[phase])}`),
  '',
  'the sandbox against each floor (trivial script, one at a time; sandbox / floor):',
  `  p50 latency: ${times(t1.p50, vmFloor.p50)} node:vm's, ${times(t1.p50, spawnFloor.p50)} spawn's`,
  `  runs/s: ${times(t1.runsPerSecond, vmFloor.runsPerSecond)} node:vm's, ` +
    `${times(t1.runsPerSecond, spawnFloor.runsPerSecond)} spawn's`,
  `  CPU-ms/run: ${times(t1.cpuMs, vmFloor.cpuMs)} node:vm's, ${times(t1.cpuMs, spawnFloor.cpuMs)} spawn's`,
  'now / before:',
  ...phases.map(
    (phase) =>
      `  ${LABELS[phase].padEnd(32)} runs/s ${times(measured[phase].runsPerSecond, BEFORE[phase].runsPerSecond)},` +
      ` p99 ${times(measured[phase].p99, BEFORE[phase].p99)}, CPU-ms/run ${times(measured[phase].cpuMs, BEFORE[phase].cpuMs)}`,
  ),
  '',
  `the demo board (${demo.length} scripts: ${demo.length - 1} widgets and the announcer), per script at ${CONCURRENT} at once:`,
  `  ${'script'.padEnd(28)} ${'interval'.padStart(8)} ${'p50'.padStart(10)} ${'p99'.padStart(10)} ${'p99/interval'.padStart(12)}`,
  ...lateness.map(
    (s) =>
      `  ${s.name.padEnd(28)} ${`${s.intervalMs / 1000} s`.padStart(8)} ${ms(quantile(s.latencies, 0.5)).padStart(10)}` +
      ` ${ms(s.p99).padStart(10)} ${`${((100 * s.p99) / s.intervalMs).toFixed(2)}%`.padStart(12)}`,
  ),
  `  required: ${required.toFixed(2)} runs/s (the sum of 1/interval); capacity at ${CONCURRENT} at once: ` +
    `${rate(capacity)} runs/s, ${(capacity / required).toFixed(0)} x the need`,
  `  CPU it takes: ${required.toFixed(2)} runs/s x ${cpu(measured['demo-2'].cpuMs)} CPU-ms = ` +
    `${(100 * cpuShare).toFixed(2)}% of one CPU (${((100 * cpuShare) / availableParallelism()).toFixed(2)}% of the machine)`,
  `target: the demo board still updates on time (capacity over the required rate, every script's p99 under ` +
    `${100 * ON_TIME_SHARE}% of its interval; worst ${worst.name}, ${ms(worst.p99)} of ${worst.intervalMs / 1000} s): ` +
    met(capacity > required && onTime && failures === 0),
  ...(failures > 0
    ? [`${failures} sandbox runs did not answer what they should: the figures above count them`]
    : []),
];
sandbox.close();
process.stdout.write(`${lines.join('\n')}\n\n`);
await report('scripts', [
  {
    name: 'trivial script one at a time, runs/s, beside a fresh node:vm context',
    value: t1.runsPerSecond,
    floor: vmFloor.runsPerSecond,
    unit: '/s',
  },
  {
    name: 'trivial script one at a time, runs/s, beside spawning node -e 0',
    value: t1.runsPerSecond,
    floor: spawnFloor.runsPerSecond,
    unit: '/s',
  },
  {
    name: 'trivial script one at a time, p99, beside a fresh node:vm context',
    value: t1.p99,
    floor: vmFloor.p99,
    unit: 'ms',
  },
  {
    name: 'trivial script one at a time, CPU per run, beside a fresh node:vm context',
    value: t1.cpuMs,
    floor: vmFloor.cpuMs,
    unit: 'ms',
  },
  {
    name: `demo scripts ${CONCURRENT} at once, runs/s (the board needs ${required.toFixed(2)}/s)`,
    value: capacity,
    unit: '/s',
    target: `> ${required.toFixed(2)} /s`,
    met: capacity > required,
  },
  {
    name: `demo board, the worst script's p99 (${worst.name}) in % of its interval (${failures} failed)`,
    value: (100 * worst.p99) / worst.intervalMs,
    unit: '%',
    target: `< ${100 * ON_TIME_SHARE} %, none failed`,
    met: onTime && failures === 0,
  },
]);
