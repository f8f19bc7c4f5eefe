// The options of every pino logger of the product (the service's Fastify, the device's processes),
// so their lines carry the same fields: `level` as a word, `time` in ISO 8601, `pid`, `hostname`,
// `name` (the program) and `msg`.
import { stdTimeFunctions, type LoggerOptions } from 'pino';

export function logOptions(name: string, level: string): LoggerOptions {
  return {
    name,
    level,
    timestamp: stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
}
