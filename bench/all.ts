// npm run bench: every bench:* script of package.json in turn (its own output as it runs), each
// appending its figures to one file (bench/report.ts), then one table of every figure beside its
// floor, ratio and target. At short settings by default (this file's SHORT: some 15 minutes on
// this machine); benches it has no settings for run at their own defaults.
// Usage: npm run bench -- [--only service,fleet] [--full] [--args 'fleet=--devices 4000 ...']...
//   --only     the benches to run (names after "bench:"), every one by default
//   --full     each bench at its own defaults (its README figures), none of the short settings
//   --args     a bench's arguments instead of its short ones, in each of its runs (repeatable)
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { REPORT_FILE_VARIABLE, figuresTable, type Figure } from './report';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    full: { type: 'boolean', default: false },
    args: { type: 'string', multiple: true, default: [] },
  },
});

/** Short settings of the benches that have them: seconds rather than minutes each. */
const SHORT: Record<string, string[]> = {
  service: ['--seconds', '2', '--idle', '2', '--clients', '500', '--notifications', '20'],
  fleet: ['--devices', '500', '--seconds', '20', '--heartbeat', '10'],
  latency: ['--notifications', '50', '--switches', '5'],
  scripts: ['--seconds', '3', '--floor-seconds', '1'],
  resubscribe: ['--screens', '1000', '--edits', '5'],
  tenants: ['--seconds', '8'],
  media: ['--seconds', '2', '--concurrency', '16,64'],
  'data-sources': ['--seconds', '20'],
  sync: ['--switches', '20', '--wall-minutes', '1'],
};

interface Variant {
  /** Arguments of this run whatever the settings. */
  fixed: string[];
  /** Its short settings (SHORT's for the bench's own run). */
  short: string[];
}

/**
 * Further runs of a bench: the PostgreSQL variants (a throwaway cluster with fsync on) and the
 * fleet across two nodes, three runs.
 */
const VARIANTS: Record<string, Variant[]> = {
  service: [{ fixed: ['--postgres'], short: SHORT.service ?? [] }],
  fleet: [
    {
      fixed: ['--nodes', '2', '--runs', '3'],
      short: ['--devices', '2000', '--seconds', '10', '--heartbeat', '5'],
    },
  ],
  resubscribe: [{ fixed: ['--postgres'], short: SHORT.resubscribe ?? [] }],
};

const packageJson = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};
const every = Object.keys(packageJson.scripts)
  .filter((script) => script.startsWith('bench:'))
  .map((script) => script.slice('bench:'.length));
const only = values.only?.split(',').map((name) => name.trim());
const unknown = only?.filter((name) => !every.includes(name)) ?? [];
if (unknown.length > 0) throw new Error(`--only: no bench:${unknown.join(', bench:')} in package.json`);
const chosen = only ? every.filter((name) => only.includes(name)) : every;
const given = new Map(
  values.args.map((entry) => {
    const [name = '', ...rest] = entry.split('=');
    return [name, rest.join('=').split(' ').filter(Boolean)] as const;
  }),
);

const dir = await mkdtemp(join(tmpdir(), 'wallboard-bench-all-'));
const file = join(dir, 'figures.jsonl');
const runs: { label: string; status: string; seconds: number }[] = [];
try {
  for (const name of chosen) {
    for (const variant of [{ fixed: [], short: SHORT[name] ?? [] }, ...(VARIANTS[name] ?? [])]) {
      const args = [...variant.fixed, ...(given.get(name) ?? (values.full ? [] : variant.short))];
      const label = [`bench:${name}`, ...variant.fixed].join(' ');
      process.stdout.write(`\n=== npm run bench:${name} -- ${args.join(' ')}\n`);
      const started = performance.now();
      const child = spawn('npm', ['run', '--silent', `bench:${name}`, '--', ...args], {
        cwd: ROOT,
        stdio: 'inherit',
        env: { ...process.env, [REPORT_FILE_VARIABLE]: file },
      });
      const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
      const status = code === 0 ? 'done' : `failed (${signal ?? `exit ${code}`})`;
      runs.push({ label, status, seconds: (performance.now() - started) / 1000 });
    }
  }
  const lines = (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  const figures = lines.flatMap((line) => {
    const { bench, figures: some } = JSON.parse(line) as { bench: string; figures: Figure[] };
    return some.map((figure) => ({ ...figure, bench }));
  });
  const missed = figures.filter((figure) => figure.met === false).length;
  const targets = figures.filter((figure) => figure.met !== undefined).length;
  process.stdout.write(
    [
      '',
      `=== every figure (${targets - missed} of ${targets} targets met)`,
      figuresTable(figures),
      '',
      ...runs.map((run) => `${run.label}: ${run.status} in ${run.seconds.toFixed(0)} s`),
      '',
    ].join('\n'),
  );
  if (runs.some((run) => run.status !== 'done')) process.exitCode = 1;
} finally {
  await rm(dir, { recursive: true, force: true });
}
