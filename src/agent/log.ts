// The one structured logger of the device's processes (the web player, `npm start`, the Electron
// shell): pino, as the service's Fastify already logs. Every line is one JSON object with the same
// fields as the service's: `level` as a word, `time` in ISO 8601, `pid`, `hostname`, `name` (the
// program) and `msg` (src/node/log-options.ts).
import { pino, type DestinationStream } from 'pino';
import { logOptions } from '../node/log-options';
import type { Logger } from './ports';

const LEVELS = new Set([...Object.keys(pino.levels.values), 'silent']);
const DEFAULT_LEVEL = 'info';

/**
 * A pino logger named `name` writing to `destination`, behind the agent's Logger port. `level`
 * (WALLBOARD_LOG_LEVEL) is one of pino's; a wrong one logs at info, with a warning, rather than
 * keeping a screen from starting.
 */
export function createLogger(name: string, destination: DestinationStream, level?: string): Logger {
  const known = level === undefined || level === '' || LEVELS.has(level);
  const logger = pino(logOptions(name, known && level ? level : DEFAULT_LEVEL), destination);
  if (!known) {
    logger.warn(`WALLBOARD_LOG_LEVEL "${level}" is none of ${[...LEVELS].join(', ')}: logging at info`);
  }
  return {
    info: (message) => logger.info(message),
    warn: (message) => logger.warn(message),
    error: (message) => logger.error(message),
  };
}

/**
 * A logger on stderr, which a systemd journal or a terminal reads; stdout is left to the lines
 * scripts parse (the web player's address). Synchronous, so the lines before a crash are not lost.
 */
export function stderrLogger(name: string, level = process.env.WALLBOARD_LOG_LEVEL): Logger {
  return createLogger(name, pino.destination({ dest: 2, sync: true }), level);
}
