// What a build says. The bundlers talk a lot: on a fresh clone vite alone printed some 8,500 lines
// of warnings (a "use client" directive per Mantine module, a large chunk) before `npm start`'s
// four lines that matter. So the targets are built in a child process whose stdout and stderr go
// to a log file (esbuild writes its messages from its own process, which only a file descriptor
// catches), and the terminal gets one line: what was built, how long it took, how many warnings
// and where they are. A failure's message is shown, with the end of the log when the child died.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import { stripVTControlCharacters as plain } from 'node:util';
import type { Logger } from 'vite';

/** What the child reports of each target, over its IPC channel. */
export interface TargetResult {
  name: string;
  /** Warnings vite gave (esbuild's are counted in the log: the `▲ [WARNING]` lines). */
  warnings: number;
  /** Its message when it failed. */
  error?: string;
}

export interface Todo {
  name: string;
  /** Why it is built (`not built yet`, `sources changed`), or '' when asked for. */
  reason: string;
}

/** esbuild's own marker of a warning, as it writes one where there is no terminal. */
const ESBUILD_WARNING = /^▲ \[WARNING\]/gm;
/** Lines of the log shown when the child ended without reporting every target. */
const TAIL_LINES = 30;

/**
 * A vite logger that counts the warnings (each of rolldown's comes through `warn`) and writes
 * them as vite would, in plain text (rolldown colours its diagnostics whatever NO_COLOR says); in
 * the child, that is to the log.
 */
export async function countingViteLogger(counted: () => void): Promise<Logger> {
  const { createLogger } = await import('vite');
  const logger = createLogger('warn', { allowClearScreen: false });
  const seen = new Set<string>();
  return {
    ...logger,
    info: (message, options) => logger.info(plain(message), options),
    warn(message, options) {
      counted();
      logger.warn(plain(message), options);
    },
    warnOnce(message, options) {
      if (!seen.has(message)) counted();
      seen.add(message);
      logger.warnOnce(plain(message), options);
    },
    error: (message, options) => logger.error(plain(message), options),
  };
}

/** Sends a target's result to the parent (in the child only); resolves once it is sent. */
export function report(result: TargetResult): Promise<void> {
  const message = result.error === undefined ? result : { ...result, error: plain(result.error) };
  return new Promise((resolve) => {
    if (process.send) process.send(message, undefined, {}, () => resolve());
    else resolve();
  });
}

/**
 * Runs `entry` with `args` in a child whose output goes to `logFile` (written anew), and gathers
 * what it reports of each target; a target it never reported failed with the log's end as its
 * message.
 */
export async function buildLogged(
  entry: string,
  args: readonly string[],
  todo: readonly Todo[],
  logFile: string,
): Promise<TargetResult[]> {
  await mkdir(dirname(logFile), { recursive: true });
  const log = openSync(logFile, 'w');
  const results: TargetResult[] = [];
  try {
    // Plain text for a file: picocolors (vite's) and rolldown's diagnostics both read NO_COLOR.
    const { FORCE_COLOR: _forced, ...env } = process.env;
    const child = fork(entry, [...args], {
      stdio: ['ignore', log, log, 'ipc'],
      env: { ...env, NO_COLOR: '1' },
    });
    child.on('message', (message: TargetResult) => results.push(message));
    const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    const missing = todo.filter(({ name }) => !results.some((result) => result.name === name));
    if (missing.length > 0) {
      const text = await readFile(logFile, 'utf8').catch(() => '');
      const tail = text.trimEnd().split('\n').slice(-TAIL_LINES).join('\n');
      const how = signal ? `was killed by ${signal}` : `exited with status ${code}`;
      for (const { name } of missing) results.push({ name, warnings: 0, error: `the build ${how}\n${tail}` });
    }
  } finally {
    closeSync(log);
  }
  return results;
}

/** esbuild's warnings in the log, which vite's logger did not count. */
export async function esbuildWarnings(logFile: string): Promise<number> {
  const text = await readFile(logFile, 'utf8').catch(() => '');
  return text.match(ESBUILD_WARNING)?.length ?? 0;
}

/**
 * The one line a build prints, `built ...` (bench/spawned.ts passes such lines on):
 * `built launcher, console, renderer in 8.6 s (not built yet); 856 warnings in dist/build.log`.
 */
export function summaryLine(options: {
  todo: readonly Todo[];
  seconds: number;
  warnings: number;
  failed: readonly string[];
  logFile: string;
  root: string;
}): string {
  const { todo, seconds, warnings, failed, logFile, root } = options;
  const reasons = new Set(todo.map(({ reason }) => reason));
  const names = (list: readonly Todo[]) =>
    list.map(({ name, reason }) => (reasons.size > 1 && reason ? `${name} (${reason})` : name)).join(', ');
  const built = todo.filter(({ name }) => !failed.includes(name));
  const why = reasons.size === 1 && todo[0]?.reason ? ` (${todo[0].reason})` : '';
  const where = relative(root, logFile);
  const parts = [
    built.length > 0 ? `built ${names(built)} in ${seconds.toFixed(1)} s${why}` : '',
    ...(failed.length > 0 ? [`${failed.join(', ')} failed (above)`] : []),
    warnings > 0
      ? `${warnings} warning${warnings === 1 ? '' : 's'} in ${where}`
      : failed.length > 0
        ? `the whole output in ${where}`
        : '',
  ];
  return parts.filter(Boolean).join('; ');
}
