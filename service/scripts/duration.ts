import { parseDuration } from '../../src/shared/script';

/** A refusal of a library argument; its message names the argument and is shown to the script. */
export class ArgumentError extends Error {}

const DURATION_HINT = 'a number of seconds or a string such as "10s", "1m" or "1h30m"';

/**
 * A notification's duration in whole seconds: a number of seconds or a duration string, rounded
 * to the nearest second and never less than 1. Zero, negative and unreadable values are refused.
 */
export function durationSeconds(value: unknown, name: string, max: number): number {
  if (value === undefined || value === null)
    throw new ArgumentError(`${name} is required (${DURATION_HINT})`);
  let seconds: number;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new ArgumentError(`${name} must be a finite number of seconds`);
    seconds = value;
  } else if (typeof value === 'string') {
    const ms = parseDuration(value.trim());
    if (ms === null)
      throw new ArgumentError(`${name} must be ${DURATION_HINT}, not ${JSON.stringify(value)}`);
    seconds = ms / 1000;
  } else {
    throw new ArgumentError(`${name} must be ${DURATION_HINT}`);
  }
  if (seconds <= 0) throw new ArgumentError(`${name} must be at least 1 second`);
  const whole = Math.max(1, Math.round(seconds));
  if (whole > max) throw new ArgumentError(`${name} must be at most ${max} seconds`);
  return whole;
}

/** A timeout in milliseconds, from seconds or a duration string; refused when outside (0, max]. */
export function timeoutMs(value: unknown, name: string, maxMs: number): number {
  let ms: number | null;
  if (typeof value === 'number') ms = Number.isFinite(value) ? value * 1000 : null;
  else if (typeof value === 'string') ms = parseDuration(value.trim());
  else ms = null;
  if (ms === null) throw new ArgumentError(`${name} must be a number of seconds or a string such as "5s"`);
  if (ms <= 0) throw new ArgumentError(`${name} must be more than 0 seconds`);
  if (ms > maxMs) throw new ArgumentError(`${name} must be at most ${maxMs / 1000} seconds`);
  return ms;
}
