import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from '@playwright/test';

// `npm start` as a person types it, from the built dist/ (`npm run test:e2e` builds first): what it
// prints, measured in lines; the console's address, the same at the next start; and the README's
// second screen beside it. No display: the kiosk browser is left out, which keeps this lean.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The link that signs the demo admin in: the last line `npm start` prints once it runs. */
const SIGN_IN =
  /^Sign in with this one-time link .*: (http:\/\/127\.0\.0\.1:\d+)\/console\/sign-in#code=\S+$/m;
/** The bound: what comes before the console's link fits on a screen. */
const MAX_LINES_BEFORE_LINK = 30;

let dir: string;
const started: ChildProcess[] = [];

test.beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-npm-start-'));
});
test.afterEach(async () => {
  await Promise.all(started.splice(0).map(stop));
  await rm(dir, { recursive: true, force: true });
});

/** Runs an npm script in a process group of its own (Ctrl+C reaches the whole group). */
function npm(
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; output: () => string } {
  const { DISPLAY: _display, WAYLAND_DISPLAY: _wayland, ...rest } = process.env;
  const child = spawn('npm', args, {
    cwd: ROOT,
    env: { ...rest, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  started.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

/** Ctrl+C, as at a terminal: SIGINT to the process group; resolves once it has exited. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = once(child, 'exit');
  process.kill(-child.pid, 'SIGINT');
  await exited;
}

/** One `npm start`, until its sign-in link: the lines printed, and the console's origin. */
async function npmStart(): Promise<{
  lines: string[];
  origin: string;
  child: ChildProcess;
  output: () => string;
}> {
  const run = npm(['start', '--', '--data-dir', join(dir, 'npm-start')]);
  await expect
    .poll(() => SIGN_IN.test(run.output()) || run.child.exitCode !== null, { timeout: 60_000 })
    .toBe(true);
  const origin = SIGN_IN.exec(run.output())?.[1];
  if (!origin) throw new Error(`npm start did not print its console link:\n${run.output()}`);
  const lines = run.output().split('\n');
  return {
    lines: lines.slice(0, lines.findIndex((line) => SIGN_IN.test(line)) + 1),
    origin,
    child: run.child,
    output: run.output,
  };
}

test('npm start prints a short start, the console last, at the same address the next time', async () => {
  test.setTimeout(120_000);
  const first = await npmStart();
  expect(first.lines.length - 1, first.lines.join('\n')).toBeLessThan(MAX_LINES_BEFORE_LINK);
  expect(first.lines.at(-2)).toBe(`Console: ${first.origin}/console/ (the same address at every start)`);
  // Still the last line a moment later: nothing started after it buries it.
  await sleep(1000);
  expect(first.output().trimEnd().split('\n').at(-1)).toMatch(SIGN_IN);
  await stop(first.child);

  const second = await npmStart();
  expect(second.origin).toBe(first.origin);
  expect(second.lines.length - 1).toBeLessThan(MAX_LINES_BEFORE_LINK);

  // The README's second screen, while npm start runs: its own port and data folder.
  const screen = npm(['run', 'start:web', '--', '--server', second.origin], {
    XDG_DATA_HOME: join(dir, 'xdg'),
  });
  await expect
    .poll(
      () =>
        /Wallboard web player at (http:\S+), pairing/.test(screen.output()) || screen.child.exitCode !== null,
      {
        timeout: 30_000,
      },
    )
    .toBe(true);
  expect(screen.output()).not.toContain('EADDRINUSE');
  const playerUrl = /Wallboard web player at (http:\S+), pairing/.exec(screen.output())?.[1] ?? '';
  expect((await fetch(playerUrl)).status).toBe(200);
});
