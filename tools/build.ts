// The build, and the check that runs before the product does:
//
//   node tools/build.ts [target ...]             builds the targets (all by default)
//   node tools/build.ts --if-stale [target ...]  builds those, and what they need to run, whose
//                                                output is missing or older than their sources
//
// `npm start`, `npm run service` and `npm run start:web` run the second before their bundle, so
// they work right after `npm ci` and cost some 60 ms afterwards. Node runs this file as it is (it
// strips the types itself): building needs esbuild and vite, never tsx or a compiler.
//
// It prints one line, `built <targets> in <s> s; <n> warnings in dist/build.log`, and a failure's
// message: the bundlers' own output goes to dist/build.log (build-output.ts). The targets are built
// by this same file in a child process, `--worker <target ...>`, whose output is that log.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  buildLogged,
  countingViteLogger,
  esbuildWarnings,
  report,
  summaryLine,
  type Todo,
} from './build-output.ts';
import { compressFolder } from './compress.ts';
import { freshness, stamped } from './freshness.ts';
import { NODE_BUNDLES, bodyOf, buildNodeBundle, storeTemplateOf, type NodeBundle } from './node-bundles.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Where the bundlers' output goes, anew at each build. */
const LOG_FILE = join(ROOT, 'dist', 'build.log');

const TARGET_NAMES = [
  'renderer',
  'console',
  'main',
  'script-host',
  'service',
  'web-player',
  'launcher',
] as const;
type TargetName = (typeof TARGET_NAMES)[number];

interface Target {
  /** Folders and files (from the repository) whose change makes the output stale. */
  inputs: readonly string[];
  /** What the build writes; the target is stale while one is missing. */
  outputs: readonly string[];
  /** Targets whose output it needs at run time (for --if-stale). */
  needs: readonly TargetName[];
  /** `warned` counts vite's warnings (esbuild's are counted in the log). */
  build(warned: () => void): Promise<unknown>;
}

/** Inputs of every target: the build itself, the compiler options esbuild reads, the packages. */
const COMMON_INPUTS = ['tools', 'tsconfig.json', 'node_modules/.package-lock.json'];

/** A Node bundle's target: the bundle, built by esbuild (loaded only then). */
const nodeBundle = (name: NodeBundle, inputs: string[], needs: TargetName[]): Target => ({
  inputs,
  outputs: [
    `dist/${NODE_BUNDLES[name].outfile}`,
    `dist/${bodyOf(NODE_BUNDLES[name].outfile)}`,
    ...(NODE_BUNDLES[name].holdsService ? [`dist/${storeTemplateOf(NODE_BUNDLES[name].outfile)}`] : []),
  ],
  needs,
  build: () => buildNodeBundle(name),
});

const TARGETS: Record<TargetName, Target> = {
  renderer: {
    inputs: ['renderer', 'src/shared', 'resources/sounds'],
    outputs: ['dist/renderer/index.html'],
    needs: [],
    async build(warned) {
      const { build } = await import('vite');
      await build({
        configFile: join(ROOT, 'renderer', 'vite.config.ts'),
        customLogger: await countingViteLogger(warned),
      });
      // For the web player, which serves the whole folder (src/web-player/static-server.ts).
      await compressFolder(join(ROOT, 'dist', 'renderer'));
    },
  },
  console: {
    inputs: ['console', 'renderer/src', 'src/shared'],
    outputs: ['dist/console/index.html'],
    needs: [],
    async build(warned) {
      const { build } = await import('vite');
      await build({
        configFile: join(ROOT, 'console', 'vite.config.ts'),
        customLogger: await countingViteLogger(warned),
      });
      // Only its files: its pages are read and templated per request (service/routes/console.ts).
      await compressFolder(join(ROOT, 'dist', 'console', 'assets'));
    },
  },
  main: {
    inputs: ['src'],
    outputs: ['dist/main/index.cjs', 'dist/preload/index.cjs'],
    needs: ['renderer'],
    build: async () => (await import('./electron-bundles.ts')).buildBundles(),
  },
  'script-host': {
    inputs: ['service/scripts/host'],
    outputs: ['dist/script-host/host.cjs'],
    needs: [],
    build: async () => (await import('../service/scripts/host/build.ts')).buildScriptHost(),
  },
  // The service serves the console at / (routes/console.ts).
  service: nodeBundle('service', ['service', 'src/shared'], ['script-host', 'console']),
  'web-player': nodeBundle('web-player', ['src'], ['renderer']),
  // Electron, where it exists, runs dist/main with the renderer; the embedded service runs scripts.
  launcher: nodeBundle('launcher', ['src', 'service'], ['renderer', 'main', 'script-host', 'console']),
};

const isTarget = (name: string): name is TargetName => (TARGET_NAMES as readonly string[]).includes(name);
const here = (path: string) => join(ROOT, path);
const stampOf = (name: TargetName) => join(ROOT, 'dist', '.stamps', name);

/** The targets and, with `withNeeds`, what they need, each once, needs first. */
function closure(names: readonly TargetName[], withNeeds: boolean): TargetName[] {
  const result = new Set<TargetName>();
  const add = (name: TargetName) => {
    if (withNeeds) for (const need of TARGETS[name].needs) add(need);
    result.add(name);
  };
  names.forEach(add);
  return [...result];
}

/** In the child (--worker): builds one target and reports it to the parent. */
async function buildTarget(name: TargetName): Promise<void> {
  let warnings = 0;
  try {
    await stamped(stampOf(name), () => TARGETS[name].build(() => (warnings += 1)));
    await report({ name, warnings });
  } catch (error) {
    await report({ name, warnings, error: (error as Error).message });
  }
}

/** The child's whole job: the targets given, side by side, whatever their freshness. */
async function work(names: readonly TargetName[]): Promise<void> {
  // Side by side: esbuild and vite each use the cores they get, and most of a build is waiting.
  await Promise.all(names.map(buildTarget));
}

/** Builds `names` (with --if-stale only the stale ones, and what they need); false on a failure. */
async function run(args: readonly string[]): Promise<boolean> {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: {
      'if-stale': { type: 'boolean', default: false },
      worker: { type: 'boolean', default: false },
    },
    allowPositionals: true,
  });
  const unknown = positionals.filter((name) => !isTarget(name));
  if (unknown.length > 0) {
    console.error(`tools/build.ts: no target ${unknown.join(', ')} (${TARGET_NAMES.join(', ')})`);
    return false;
  }
  const asked = positionals.filter(isTarget);
  if (values.worker) {
    await work(asked);
    return true;
  }
  const ifStale = values['if-stale'];
  const names = closure(asked.length > 0 ? asked : TARGET_NAMES, ifStale);
  const todo: (Todo & { name: TargetName })[] = [];
  for (const name of names) {
    if (!ifStale) {
      todo.push({ name, reason: '' });
      continue;
    }
    const target = TARGETS[name];
    const state = await freshness(stampOf(name), target.outputs.map(here), [
      ...COMMON_INPUTS.map(here),
      ...target.inputs.map(here),
    ]);
    if (!state.fresh) todo.push({ name, reason: state.reason });
  }
  if (todo.length === 0) return true;
  const started = performance.now();
  const targets = todo.map(({ name }) => name);
  const results = await buildLogged(fileURLToPath(import.meta.url), ['--worker', ...targets], todo, LOG_FILE);
  const failed = results.filter((result) => result.error !== undefined);
  // On stderr, as everything here: the product's own output comes after, on stdout.
  for (const { name, error } of failed) console.error(`tools/build.ts: ${name} failed: ${error}`);
  const warnings =
    results.reduce((sum, result) => sum + result.warnings, 0) + (await esbuildWarnings(LOG_FILE));
  const line = summaryLine({
    todo,
    seconds: (performance.now() - started) / 1000,
    warnings,
    failed: failed.map(({ name }) => name),
    logFile: LOG_FILE,
    root: ROOT,
  });
  process.stderr.write(`${line}\n`);
  return failed.length === 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = (await run(process.argv.slice(2))) ? 0 : 1;
}
