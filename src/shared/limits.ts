import { z } from 'zod';

// What every stored string, JSON value and date must be, whatever the field. PostgreSQL refuses
// NUL in text and jsonb and lone surrogates in jsonb, JSON.stringify and the stores' own parsers
// recurse on nesting, and a timestamp column or an ISO string holds a limited range of years: a
// value past these limits used to reach the store and come back as a 500. Checked here, at the
// boundary, they are a 400 that names the field, on either store.

/** ES2024's String.prototype.isWellFormed (Node 20+, Chromium 111+); our type libraries stop at ES2023. */
const isWellFormed = (String.prototype as unknown as { isWellFormed(this: string): boolean }).isWellFormed;

export const NUL_MESSAGE = 'must not contain the NUL character (\\u0000)';
export const SURROGATE_MESSAGE =
  'must not contain a lone UTF-16 surrogate (\\ud800 to \\udfff without its pair)';

/** Why a string cannot be stored, or null when it can. */
export function textProblem(value: string): string | null {
  if (value.includes('\u0000')) return NUL_MESSAGE;
  if (!isWellFormed.call(value)) return SURROGATE_MESSAGE;
  return null;
}

/**
 * Adds the text rules (no NUL, no lone surrogate) to a string schema, URL schemas included. A
 * string that breaks them is not checked further: one message, the one that matters.
 */
export function storable<T extends z.ZodType<string>>(schema: T): T {
  return schema.superRefine((value, ctx) => {
    const problem = textProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, continue: false });
  });
}

/** A string that can be stored: the base of every free-text field. */
export const textSchema = storable(z.string());

/** Objects and arrays inside one another; a stored JSON value may nest this deep and no deeper. */
export const JSON_DEPTH_MAX = 64;
/** Problems named per value: enough to fix a request, and never an answer larger than the request. */
const JSON_PROBLEMS_MAX = 10;

export const DEPTH_MESSAGE = `must not nest objects and arrays more than ${JSON_DEPTH_MAX} levels deep`;

export interface JsonProblem {
  path: (string | number)[];
  message: string;
}

interface Pending {
  value: unknown;
  path: (string | number)[];
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/**
 * The first problems of a JSON value that would be stored: NUL or a lone surrogate in a string or
 * a key, a number JSON cannot write (1e400 parses as Infinity), anything that is not JSON, and
 * nesting deeper than JSON_DEPTH_MAX. Walks with its own stack, so no depth of input can
 * overflow the call stack; a branch is not entered past the limit.
 */
export function jsonProblems(root: unknown): JsonProblem[] {
  const problems: JsonProblem[] = [];
  const pending: Pending[] = [{ value: root, path: [] }];
  const add = (path: (string | number)[], message: string) => problems.push({ path, message });
  for (let next = pending.pop(); next && problems.length < JSON_PROBLEMS_MAX; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) add(path, problem);
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) add(path, 'must be a finite number');
    } else if (isContainer(value)) {
      if (path.length >= JSON_DEPTH_MAX) {
        add(path, DEPTH_MESSAGE);
        continue;
      }
      const children: Pending[] = Array.isArray(value)
        ? value.map((item: unknown, index) => ({ value: item, path: [...path, index] }))
        : Object.entries(value).map(([key, item]) => ({ value: item, path: [...path, key] }));
      if (!Array.isArray(value)) {
        for (const { path: keyPath } of children) {
          const problem = textProblem(String(keyPath[keyPath.length - 1]));
          if (problem) add(keyPath, `as a key, ${problem}`);
        }
      }
      // Reversed onto the stack, so that problems are named in the order they were written.
      pending.push(...children.reverse());
    } else if (typeof value !== 'boolean' && value !== null && value !== undefined) {
      // undefined is allowed: JSON.stringify leaves it out, as JSON.parse never makes it.
      add(path, 'must be a JSON value (an object, array, string, number, boolean or null)');
    }
  }
  return problems.slice(0, JSON_PROBLEMS_MAX);
}

/** Adds the JSON rules to a schema of a stored JSON value (metrics, parameters). */
export function storableJson<T extends z.ZodType>(schema: T): T {
  return schema.superRefine((value, ctx) => {
    for (const { path, message } of jsonProblems(value)) ctx.addIssue({ code: 'custom', message, path });
  });
}

/** The earliest and latest instants stored: the unix epoch, and the last second of year 9999. */
export const DATE_MIN_MS = 0;
export const DATE_MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/** The same limit for the unix seconds of metrics (`expires_at`, `time`, ...). */
export const UNIX_SECONDS_MAX = Math.floor(DATE_MAX_MS / 1000);

export const DATE_RANGE_MESSAGE = 'must be a date-time from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z';

/** True for an ISO 8601 date-time inside the range (the offset counts: `1970-01-01T00:30+01:00` is 1969). */
export function isDateInRange(text: string): boolean {
  const ms = Date.parse(text);
  return Number.isFinite(ms) && ms >= DATE_MIN_MS && ms <= DATE_MAX_MS;
}
