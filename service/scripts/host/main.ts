// A script host: a Node process the service starts under Node's permission model, with an empty
// environment, that runs scripts one at a time, each in a fresh QuickJS engine (engine.ts). It
// talks to the service over the IPC channel only. Bundled into one file (build.ts), which is all
// it may read of the file system.
import { newQuickJSWASMModuleFromVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';
import variant from '@jitl/quickjs-singlefile-cjs-release-sync';
import { EngineRun } from './engine';
import type { FromHost, ToHost } from './protocol';

function send(message: FromHost): void {
  process.send?.(message);
}

function serve(engine: QuickJSWASMModule): void {
  let run: EngineRun | null = null;
  // The service hands out the next run as soon as one reports its end, which may be before its
  // engine is freed here: that run waits its turn.
  let next: Extract<ToHost, { type: 'run' }> | null = null;
  const start = (message: Extract<ToHost, { type: 'run' }>) => {
    run = new EngineRun(engine, message.limits, send, (healthy) => {
      run = null;
      // A damaged engine is not reused: the service starts another host.
      if (!healthy) process.exit(1);
      if (next) start(next);
      next = null;
    });
    run.start(message.code, message.previous);
  };
  process.on('message', (message: ToHost) => {
    if (message.type === 'run') {
      if (run) next = message;
      else start(message);
    } else if (message.type === 'reply') {
      run?.reply(
        message.id,
        message.ok ? { ok: true, json: message.json } : { ok: false, error: message.error },
      );
    }
  });
  // The service going away closes the channel: nothing is left to do.
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready' });
}

newQuickJSWASMModuleFromVariant(variant).then(serve, () => process.exit(1));
