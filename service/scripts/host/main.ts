// A script host: a Node process the service starts under Node's permission model, with an empty
// environment, that runs scripts one at a time, each in a fresh QuickJS engine (engine.ts), an
// instance of its own in a memory of its own (bounded-memory.ts): what one run allocated is gone
// with it.
// It talks to the service over the IPC channel only. Bundled into one file (build.ts), which is
// all it may read of the file system.
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';
import variant from '@jitl/quickjs-wasmfile-release-sync';
import wasm from '@jitl/quickjs-wasmfile-release-sync/wasm';
import { BoundedMemory, ENGINE_INITIAL_BYTES, compileModule } from './bounded-memory';
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

/**
 * The engine's WebAssembly, compiled once for the host's life (its bytes are in the bundle,
 * build.ts): each run instantiates it anew in a memory of its own, and the machine code V8 made of
 * it, optimised as runs use it, serves every run.
 */
const compiled = compileModule(wasm);

/** A new engine module in a memory of `limitBytes` at most (a few ms). */
async function newEngine(limitBytes: number): Promise<Engine> {
  const memory = new BoundedMemory(limitBytes);
  const module = await newQuickJSWASMModuleFromVariant(
    newVariant(baseVariant, { wasmMemory: memory.memory, wasmModule: compiled }),
  );
  return { module, memory };
}

/** Returns freed memory to the system at once: the service measures the host's (host-pool.ts). */
const collect = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

/** Serves runs from now on; says it is ready once its first engine, of `limitBytes`, is made. */
function serve(limitBytes: number): void {
  // The engine for the next run, made while the host waits, for the last run's limit.
  let prepared = newEngine(limitBytes);
  let preparedLimit = limitBytes;
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
      // A run that kept to its engine's first memory leaves little to free; one that grew it
      // leaves up to its limit, given back now rather than at V8's leisure (once this callback,
      // which still holds the engine, has returned).
      if (engine.memory.bytes > ENGINE_INITIAL_BYTES) setImmediate(collect);
      prepared = newEngine(limitBytes);
      // Its failure is seen by the run that awaits it.
      prepared.catch(() => undefined);
      preparedLimit = limitBytes;
      const waiting = next;
      next = null;
      if (waiting) void startOrExit(waiting);
    });
    current.start(message.code, message.previous, message.secrets);
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
  // Listened to from the start: a pending WebAssembly compilation does not keep Node running,
  // the IPC channel does once it has a listener.
  prepared.then(
    () => send({ type: 'ready' }),
    () => process.exit(1),
  );
}

// The first engine is made for the service's default limit; a run with another makes its own.
serve(DEFAULT_MEMORY_MB * 1024 * 1024);
