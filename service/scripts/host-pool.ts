// The script host processes (host/main.ts), started under Node's permission model with an empty
// environment: an escape from the QuickJS engine would find a process that may read only its own
// bundle, may start no process, worker or native addon, and holds no secret. Hosts are reused for
// later runs (each in a fresh engine) until a run ends abnormally or they have served their share.
import { fork, type ChildProcess, type ForkOptions } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { ensureScriptHost } from './host/location';
import { ENGINE_STACK_BYTES } from './host/protocol';

export interface HostPoolOptions {
  /** Hosts kept waiting between runs. */
  idle: number;
  /** Runs one host serves before it is replaced (its engine's memory only grows). */
  runsPerHost: number;
  /** Old-generation heap of a host's own JavaScript (the engine's memory is apart). */
  hostHeapMb: number;
  /**
   * Resident memory a host may hold apart from its run's engine: Node, its heap, and the engine
   * it makes ready for the next run. An idle host above it is not reused; a running one above it
   * plus its run's memory limit is killed.
   */
  hostBaseMb: number;
}

export const DEFAULT_POOL_OPTIONS: HostPoolOptions = {
  idle: 2,
  runsPerHost: 200,
  hostHeapMb: 32,
  hostBaseMb: 128,
};

/** How long a host may take to load its engine before the run fails. */
const START_TIMEOUT_MS = 15_000;

/** Node's name of the permission model's switch: `--permission` since 22.13 and 23.5. */
const PERMISSION_FLAG = process.allowedNodeEnvironmentFlags.has('--permission')
  ? '--permission'
  : '--experimental-permission';

/** Node's native stack for the host, in KiB: room for the engine's stack and Node's own frames. */
const HOST_STACK_KIB = Math.ceil((ENGINE_STACK_BYTES * 3.5) / 1024);

export class ScriptHost {
  runs = 0;
  /** Its engine is loaded. */
  started = false;
  readonly ready: Promise<void>;

  constructor(readonly child: ChildProcess) {
    this.ready = new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('the script host did not start in time')),
        START_TIMEOUT_MS,
      );
      const onMessage = (message: unknown) => {
        if ((message as { type?: unknown } | null)?.type !== 'ready') return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve();
      };
      child.on('message', onMessage);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the script host exited at start (${signal ?? `status ${code}`})`));
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    // Handled by whoever waits for it; a host that fails to start while idle is just dropped.
    this.ready.then(
      () => (this.started = true),
      () => undefined,
    );
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null && this.child.connected;
  }

  /** Idle hosts do not keep the service's process alive. */
  hold(held: boolean): void {
    const channel = this.child.channel;
    if (held) {
      this.child.ref();
      channel?.ref();
    } else {
      this.child.unref();
      channel?.unref();
    }
  }

  /** The host's resident memory as the kernel counts it, in bytes; null where it cannot be read. */
  async residentBytes(): Promise<number | null> {
    if (this.child.pid === undefined || process.platform !== 'linux') return null;
    const status = await readFile(`/proc/${this.child.pid}/status`, 'utf8').catch(() => '');
    const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
    return kib === undefined ? null : Number(kib) * 1024;
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

export class HostPool {
  private idle: ScriptHost[] = [];
  private readonly options: HostPoolOptions;
  private closed = false;
  private replenishing = false;

  constructor(options: Partial<HostPoolOptions> = {}) {
    this.options = { ...DEFAULT_POOL_OPTIONS, ...options };
  }

  /** The resident memory a host may reach while it runs a script of `memoryMb`. */
  runningCeilingBytes(memoryMb: number): number {
    return (this.options.hostBaseMb + memoryMb) * 1024 * 1024;
  }

  /** A started host for one run; give it back with `release` or `discard`. */
  async acquire(): Promise<ScriptHost> {
    if (this.closed) throw new Error('the script sandbox is closed');
    this.idle = this.idle.filter((idle) => idle.alive);
    // A host that has loaded its engine first; one still loading only when none has.
    const index = Math.max(
      0,
      this.idle.findIndex((idle) => idle.started),
    );
    const host = this.idle.splice(index, 1)[0] ?? (await this.spawn());
    // What a run left behind would be the next run's, and the service's to pay for: a host whose
    // memory did not come back down is not reused.
    const resident = host.started ? await host.residentBytes() : null;
    if (resident !== null && resident > this.options.hostBaseMb * 1024 * 1024) {
      this.discard(host);
      return this.acquire();
    }
    // Its last run: its successor starts loading its engine now, not when the next run asks.
    if (host.runs + 1 >= this.options.runsPerHost && !this.idle.some((idle) => !idle.started)) {
      this.replenish();
    }
    host.hold(true);
    await host.ready;
    return host;
  }

  /**
   * A host whose run ended normally goes back to the pool, unless it has served its share and its
   * successor has loaded (until then it serves on, so that no run waits for a host to start).
   */
  release(host: ScriptHost): void {
    host.runs += 1;
    const served = host.runs >= this.options.runsPerHost && this.idle.some((idle) => idle.started);
    if (this.closed || !host.alive || served || this.idle.length >= this.options.idle) return host.kill();
    host.hold(false);
    this.idle.push(host);
  }

  /** A host whose run timed out, was aborted or misbehaved is never reused. */
  discard(host: ScriptHost): void {
    host.kill();
    this.replenish();
  }

  /** Starts a host for the idle pool ahead of need (one at a time). */
  private replenish(): void {
    if (this.closed || this.replenishing || this.idle.length >= this.options.idle) return;
    this.replenishing = true;
    this.spawn()
      .then(
        (spare) => {
          if (this.closed) return spare.kill();
          spare.hold(false);
          this.idle.push(spare);
        },
        () => undefined,
      )
      .finally(() => (this.replenishing = false));
  }

  close(): void {
    this.closed = true;
    for (const host of this.idle.splice(0)) host.kill();
  }

  private async spawn(): Promise<ScriptHost> {
    const bundle = await ensureScriptHost();
    return new ScriptHost(fork(bundle, [], hostForkOptions(bundle, this.options.hostHeapMb)));
  }
}

/**
 * How a host is started: under the permission model, reading `file` (its bundle) and nothing
 * else, with no child processes, workers, addons or WASI (none is granted), no code generation
 * from strings in Node's own realm, and an empty environment.
 */
export function hostForkOptions(file: string, heapMb = DEFAULT_POOL_OPTIONS.hostHeapMb): ForkOptions {
  return {
    execArgv: [
      PERMISSION_FLAG,
      `--allow-fs-read=${file}`,
      '--disallow-code-generation-from-strings',
      `--stack-size=${HOST_STACK_KIB}`,
      `--max-old-space-size=${heapMb}`,
      // The host collects its garbage after each run, so that what a run allocated is gone from
      // its resident memory, which the service measures.
      '--expose-gc',
      '--no-warnings',
    ],
    env: {},
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    serialization: 'json',
  };
}
