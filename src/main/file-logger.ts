import { appendFileSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../agent/ports';

export interface FileLoggerOptions {
  dir: string;
  /** The file is rotated before it would grow past this. */
  maxBytes?: number;
  /** How many rotated files are kept (`wallboard.1.log` is the newest). */
  keep?: number;
  /** Also written here; a systemd journal or a terminal reads stderr. */
  echo?: (line: string) => void;
  now?: () => Date;
}

const NAME = 'wallboard';

/**
 * Lines with a time and a level in `<dir>/wallboard.log`, rotated by size so an unattended
 * screen never fills its disk. Written synchronously: the lines before a crash are the ones that
 * matter, and a kiosk logs a few lines a minute. A failing disk never stops the app.
 */
export function createFileLogger(options: FileLoggerOptions): Logger & { file: string } {
  const { dir, maxBytes = 1024 * 1024, keep = 3, echo, now = () => new Date() } = options;
  const file = join(dir, `${NAME}.log`);
  let size: number | null = null;
  let broken = false;

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

  const write = (level: string, message: string): void => {
    const line = `${now().toISOString()} ${level} ${message.replace(/\r?\n/g, ' | ')}\n`;
    echo?.(line);
    if (broken) return;
    try {
      if (size === null) {
        mkdirSync(dir, { recursive: true });
        size = statSafe(file);
      }
      const bytes = Buffer.byteLength(line);
      if (size > 0 && size + bytes > maxBytes) rotate();
      appendFileSync(file, line);
      size += bytes;
    } catch (error) {
      broken = true;
      echo?.(`${now().toISOString()} error cannot write the log file ${file}: ${String(error)}\n`);
    }
  };

  return {
    file,
    info: (message) => write('info', message),
    warn: (message) => write('warn', message),
    error: (message) => write('error', message),
  };
}

function statSafe(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
