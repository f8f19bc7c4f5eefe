import { appendFileSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createLogger } from '../agent/log';
import type { Logger } from '../agent/ports';

export interface FileLoggerOptions {
  dir: string;
  /** The file is rotated before it would grow past this. */
  maxBytes?: number;
  /** How many rotated files are kept (`wallboard.1.log` is the newest). */
  keep?: number;
  /** Also written here; a systemd journal or a terminal reads stderr. */
  echo?: (line: string) => void;
  /** WALLBOARD_LOG_LEVEL: one of pino's levels, info by default. */
  level?: string;
}

const NAME = 'wallboard';

/**
 * The shell's log: pino's JSON lines (log.ts, the fields every Wallboard process writes) in
 * `<dir>/wallboard.log`, rotated by size so an unattended screen never fills its disk. Written
 * synchronously: the lines before a crash are the ones that matter, and a kiosk logs a few lines a
 * minute. A failing disk never stops the app; the lines then go to `echo` only.
 */
export function createFileLogger(options: FileLoggerOptions): Logger & { file: string } {
  const { dir, maxBytes = 1024 * 1024, keep = 3, echo, level } = options;
  const file = join(dir, `${NAME}.log`);
  const append = rotatingAppend(dir, file, maxBytes, keep);
  let broken = false;
  const log = createLogger(
    'shell',
    {
      write(line: string) {
        echo?.(line);
        if (broken) return;
        try {
          append(line);
        } catch (error) {
          broken = true;
          // Once this line is out (and `log` exists, if pino was still being made), to echo alone.
          queueMicrotask(() => log.error(`cannot write the log file ${file}: ${String(error)}`));
        }
      },
    },
    level,
  );
  return { file, ...log };
}

/**
 * Appends lines to `file`, first moving it to `wallboard.1.log` (and older ones one further, the
 * oldest dropped) when the line would take it past `maxBytes`. Throws what the disk throws.
 */
function rotatingAppend(dir: string, file: string, maxBytes: number, keep: number): (line: string) => void {
  let size: number | null = null;
  const rotate = (): void => {
    rmSync(join(dir, `${NAME}.${keep}.log`), { force: true });
    for (let index = keep - 1; index >= 1; index -= 1) {
      try {
        renameSync(join(dir, `${NAME}.${index}.log`), join(dir, `${NAME}.${index + 1}.log`));
      } catch {
        // That generation does not exist yet.
      }
    }
    renameSync(file, join(dir, `${NAME}.1.log`));
    size = 0;
  };
  return (line) => {
    if (size === null) {
      mkdirSync(dir, { recursive: true });
      size = statSafe(file);
    }
    const bytes = Buffer.byteLength(line);
    if (size > 0 && size + bytes > maxBytes) rotate();
    appendFileSync(file, line);
    size += bytes;
  };
}

function statSafe(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
