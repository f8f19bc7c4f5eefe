// A script host: a Node process the service starts under Node's permission model, with an empty
// environment, that runs scripts one at a time, each in a fresh QuickJS engine (engine.ts) of its
// own WebAssembly module and memory (bounded-memory.ts): what one run allocated is gone with it.
// It talks to the service over the IPC channel only. Bundled into one file (build.ts), which is
// all it may read of the file system.
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';
import variant from '@jitl/quickjs-singlefile-cjs-release-sync';
import { BoundedMemory } from './bounded-memory';
import { EngineRun } from './engine';
import { DEFAULT_MEMORY_MB, type FromHost, type ToHost } from './protocol';

type RunMessage = Extract<ToHost, { type: 'run' }>;

interface Engine {
  module: QuickJSWASMModule;
  memory: BoundedMemory;
}

function send(message: FromHost): void {
  process.send?.(message);
}

/** The variant itself: `newVariant` copies its fields, and a wrapping module's would hide ours. */
const baseVariant = (variant as { default?: typeof variant }).default ?? variant;

/** A new engine module in a memory of `limitBytes` at most (about 10 ms). */
async function newEngine(limitBytes: number): Promise<Engine> {
  const memory = new BoundedMemory(limitBytes);
  const module = await newQuickJSWASMModuleFromVariant(
    newVariant(baseVariant, { wasmMemory: memory.memory }),
  );
  return { module, memory };
}

/** Returns freed memory to the system at once: the next run's limit is measured against the process. */
const collect = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

function serve(first: Engine): void {
  // The engine for the next run, made while the host waits, for the last run's limit.
  let prepared: Promise<Engine> = Promise.resolve(first);
  let preparedLimit = first.memory.limitBytes;
  let running = false;
  // The service hands out the next run as soon as one reports its end, which may be before its
  // engine is freed here: that run waits its turn.
  let next: RunMessage | null = null;
  let current: EngineRun | null = null;

  const start = async (message: RunMessage) => {
    running = true;
    const limitBytes = message.limits.memoryMb * 1024 * 1024;
    const engine = preparedLimit === limitBytes ? await prepared : await newEngine(limitBytes);
    current = new EngineRun(engine.module, engine.memory, message.limits, send, (healthy) => {
      running = false;
      current = null;
      // A damaged engine is not reused: the service starts another host.
      if (!healthy) process.exit(1);
      collect();
      prepared = newEngine(limitBytes);
      // Its failure is seen by the run that awaits it.
      prepared.catch(() => undefined);
      preparedLimit = limitBytes;
      const waiting = next;
      next = null;
      if (waiting) void startOrExit(waiting);
    });
    current.start(message.code, message.previous);
  };
  // An engine that cannot be made leaves this host of no use: the service starts another.
  const startOrExit = (message: RunMessage) => start(message).catch(() => process.exit(1));

  process.on('message', (message: ToHost) => {
    if (message.type === 'run') {
      if (running) next = message;
      else void startOrExit(message);
    } else if (message.type === 'reply') {
      current?.reply(
        message.id,
        message.ok ? { ok: true, json: message.json } : { ok: false, error: message.error },
      );
    }
  });
  // The service going away closes the channel: nothing is left to do.
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready' });
}

// Made for the service's default limit; a run with another limit makes its own.
newEngine(DEFAULT_MEMORY_MB * 1024 * 1024).then(serve, () => process.exit(1));
