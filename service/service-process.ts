import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * How the service runs: from source under tsx (the tests, which run before any build), or the
 * bundle `npm run build` makes, which is what `npm run service` runs (the end-to-end tests). One
 * process either way (no wrapper around a second node), so a kill -9 hits the service itself.
 */
export type ServiceFrom = 'source' | 'built';

const NODE_ARGS: Record<ServiceFrom, string[]> = {
  source: ['--import', 'tsx', 'service/server.ts'],
  built: ['dist/service/server.mjs'],
};

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote so far. */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts the service as its own process and waits for its "listening on" line. */
export async function spawnService(
  args: string[],
  env: Record<string, string> = {},
  from: ServiceFrom = 'source',
): Promise<ServiceProcess> {
  return spawnListening([...NODE_ARGS[from], '--log-level', 'warn', ...args], env, 'the service');
}

/**
 * Starts `node <nodeArgs>` from the repository's root and waits for its "listening on <url>" line
 * (the service's, or a bench's floor standing in for it).
 */
export async function spawnListening(
  nodeArgs: string[],
  env: Record<string, string> = {},
  name = 'the process',
  { ipc = false } = {},
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, nodeArgs, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    // An IPC channel when the caller talks to the process (a bench's probe of its event loop).
    stdio: ['ignore', 'pipe', 'pipe', ...(ipc ? (['ipc'] as const) : [])],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}: ${output}`)));
  });
  return {
    url,
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill(signal);
      await exited;
    },
  };
}

/** Runs the service's command line to its end and returns what it printed. */
export async function runServiceCommand(
  args: string[],
  from: ServiceFrom = 'source',
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...NODE_ARGS[from], ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}
