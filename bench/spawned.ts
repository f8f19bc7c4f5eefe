// How the benches start what they measure, as users run it: the service's built bundle (dist/,
// what `npm run service` runs, built first when stale) and the floors bundled the same way by
// esbuild, each run by plain Node; optionally with bench/loop-probe.ts preloaded, which reports
// the process's event-loop delay over an IPC channel.
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnListening, type ServiceProcess } from '../service/service-process';
import { bundleForNode } from '../tools/node-bundles';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PROBE = fileURLToPath(new URL('./loop-probe.ts', import.meta.url));

/** The event loop's delay over a window, in ms, as bench/loop-probe.ts measures it. */
export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
}

export interface Spawned extends ServiceProcess {
  /** Starts a window of the loop-delay probe (when preloaded). */
  resetLoop(): void;
  /** The loop's delay since the last reset (when preloaded). */
  loopDelay(): Promise<LoopDelay>;
}

/**
 * Builds the service's bundle when it is older than its sources (tools/build.ts --if-stale); says
 * what it built, and everything the build said when it failed (the bundlers' warnings otherwise).
 */
export function buildServiceIfStale(): void {
  const built = spawnSync(process.execPath, ['tools/build.ts', '--if-stale', 'service'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const said = `${built.stdout}${built.stderr}`;
  if (built.status !== 0) throw new Error(`tools/build.ts --if-stale service failed:\n${said}`);
  for (const line of said.split('\n')) if (line.startsWith('built ')) process.stderr.write(`${line}\n`);
}

const bundles = new Map<string, Promise<string>>();

/**
 * A floor's source (`bench/...ts`) as one ES module for plain Node, built by esbuild as
 * tools/node-bundles.ts builds the service (every dependency inside, `require` for the CommonJS
 * ones), into a folder removed when this process exits; built once per process.
 */
export function bundledFloor(source: string): Promise<string> {
  let bundle = bundles.get(source);
  if (!bundle) {
    bundle = bundleOnce(source);
    bundles.set(source, bundle);
  }
  return bundle;
}

async function bundleOnce(source: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'wallboard-floor-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const outfile = join(dir, `${basename(source, '.ts')}.mjs`);
  await bundleForNode(source, outfile);
  return outfile;
}

/**
 * Starts `node [--import loop-probe] <script> <args>` from the repository's root and waits for
 * its "listening on <url>" line.
 */
async function spawnNode(
  script: string,
  args: readonly string[],
  env: Record<string, string>,
  probe: boolean,
): Promise<Spawned> {
  const started = await spawnListening(
    [...(probe ? ['--import', PROBE] : []), script, ...args],
    env,
    script,
    { ipc: probe },
  );
  const { child } = started;
  return {
    ...started,
    resetLoop: () => child.send?.('loop:reset'),
    async loopDelay() {
      if (!probe) throw new Error(`${script} runs without the loop probe`);
      const answer = once(child, 'message') as Promise<[LoopDelay]>;
      child.send?.('loop:report');
      return (await answer)[0];
    },
  };
}

/**
 * A floor, bundled, on a port of its own: the bare Fastify + socket.io one (bench/service-floor.ts)
 * unless `source` names another, with `args`.
 */
export async function spawnFloor({
  probe = false,
  source = 'bench/service-floor.ts',
  args = [] as readonly string[],
} = {}): Promise<Spawned> {
  return spawnNode(await bundledFloor(source), ['--port', '0', ...args], {}, probe);
}

/** The built service (dist/service/server.mjs) with `args`; build it first (buildServiceIfStale). */
export function spawnBuiltService(
  args: readonly string[],
  env: Record<string, string>,
  { probe = false } = {},
): Promise<Spawned> {
  return spawnNode('dist/service/server.mjs', ['--log-level', 'error', ...args], env, probe);
}
