// close-with-grace acts on the real process (its signals, its exit), so each case runs in a child.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { expect, it, vi } from 'vitest';

const MODULE = fileURLToPath(new URL('./close-on-signals.ts', import.meta.url));

/** A child whose stop takes `stopMs` (forever when null), with a deadline of `forceMs`. */
function child(stopMs: number | null, forceMs = 60_000) {
  const stop =
    stopMs === null
      ? 'new Promise(() => {})'
      : `new Promise((resolve) => setTimeout(() => { console.log('stopped'); resolve(); }, ${stopMs}))`;
  const code = `
    import { closeOnSignals } from ${JSON.stringify(MODULE)};
    const log = { info: (line) => console.log(line), error: (line) => console.log(line) };
    closeOnSignals(() => ${stop}, log, ${forceMs});
    setInterval(() => {}, 1000);
    console.log('ready');`;
  const proc = spawn(process.execPath, ['--input-type=module', '-e', code], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  proc.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const ready = new Promise<void>((resolve) =>
    proc.stdout.on('data', () => output.includes('ready') && resolve()),
  );
  const exited = once(proc, 'exit').then(([status]) => status as number);
  return { proc, ready, exited, output: () => output };
}

it('stops once on SIGTERM and exits 0 when the stop is done', async () => {
  const run = child(50);
  await run.ready;
  run.proc.kill('SIGTERM');
  expect(await run.exited).toBe(0);
  expect(run.output()).toMatch(/SIGTERM: stopping[\s\S]*stopped/);
});

it('exits 1 at once on a second signal while the stop hangs', async () => {
  const run = child(null);
  await run.ready;
  run.proc.kill('SIGINT');
  await vi.waitFor(() => expect(run.output()).toContain('SIGINT: stopping'));
  run.proc.kill('SIGINT');
  expect(await run.exited).toBe(1);
  expect(run.output()).toContain('SIGINT again: forcing the exit without finishing the stop');
});

it('exits 1 when the stop outlasts its deadline', async () => {
  const run = child(null, 200);
  await run.ready;
  run.proc.kill('SIGTERM');
  expect(await run.exited).toBe(1);
  expect(run.output()).toContain('the stop did not finish in 0.2 s: forcing the exit');
});
