import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toFieldIssues } from './issues';
import {
  DATE_RANGE_MESSAGE,
  DEPTH_MESSAGE,
  isDateInRange,
  JSON_DEPTH_MAX,
  jsonProblems,
  NUL_MESSAGE,
  storableJson,
  SURROGATE_MESSAGE,
  textProblem,
  textSchema,
  UNIX_SECONDS_MAX,
} from './limits';
import { timestampSchema } from './common';

/** `levels` arrays inside one another, built without recursion. */
function nested(levels: number, inner: unknown = 1): unknown {
  let value = inner;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

function issuesOf(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input);
  return result.success ? [] : toFieldIssues(result.error);
}

describe('text rules', () => {
  it('refuse NUL anywhere in a string', () => {
    expect(textProblem('\u0000')).toBe(NUL_MESSAGE);
    expect(textProblem('a\u0000b')).toBe(NUL_MESSAGE);
    expect(textProblem('%00')).toBeNull();
  });

  it('refuse lone surrogates, high or low, and a pair in the wrong order', () => {
    expect(textProblem('\ud800')).toBe(SURROGATE_MESSAGE);
    expect(textProblem('x\udfff')).toBe(SURROGATE_MESSAGE);
    expect(textProblem('\udc00\ud800')).toBe(SURROGATE_MESSAGE);
    expect(textProblem('\ud83d')).toBe(SURROGATE_MESSAGE);
  });

  it('accept every well-formed string, emoji and other pairs included', () => {
    for (const text of ['', 'plain', 'Grüße', '😀', '\ud83d\ude00', '\u0001\u007f', '\uffff']) {
      expect(textProblem(text), JSON.stringify(text)).toBeNull();
    }
  });

  it('give one message per string, and check nothing further', () => {
    const id = textSchema.min(1, 'must not be empty').max(4, 'must be at most 4 characters');
    expect(issuesOf(id, 'toolong\u0000')).toEqual([{ path: '', message: NUL_MESSAGE }]);
    expect(issuesOf(id, 'toolong')).toEqual([{ path: '', message: 'must be at most 4 characters' }]);
  });
});

describe('JSON rules', () => {
  it('name the string or key at fault by its path', () => {
    expect(jsonProblems({ a: [1, 'x\u0000'] })).toEqual([{ path: ['a', 1], message: NUL_MESSAGE }]);
    expect(jsonProblems({ a: { '\ud800': 1 } })).toEqual([
      { path: ['a', '\ud800'], message: `as a key, ${SURROGATE_MESSAGE}` },
    ]);
    expect(jsonProblems({ 'k\u0000': 'v' })[0]?.message).toBe(`as a key, ${NUL_MESSAGE}`);
  });

  it('refuse numbers JSON cannot write (1e400 parses as Infinity) and values that are not JSON', () => {
    expect(jsonProblems(JSON.parse('{"n":1e400}'))).toEqual([
      { path: ['n'], message: 'must be a finite number' },
    ]);
    expect(jsonProblems([Number.NaN])[0]?.path).toEqual([0]);
    expect(jsonProblems({ b: 1n })[0]?.message).toMatch(/must be a JSON value/);
    expect(jsonProblems({ f: () => 1 })[0]?.path).toEqual(['f']);
  });

  it(`accept ${JSON_DEPTH_MAX} levels of nesting and refuse one more, where it starts`, () => {
    expect(jsonProblems(nested(JSON_DEPTH_MAX))).toEqual([]);
    expect(jsonProblems(nested(JSON_DEPTH_MAX, {}))).toEqual([
      { path: Array<number>(JSON_DEPTH_MAX).fill(0), message: DEPTH_MESSAGE },
    ]);
  });

  it('check 200,000 levels without overflowing the stack', () => {
    const problems = jsonProblems(JSON.parse('['.repeat(200_000) + ']'.repeat(200_000)));
    expect(problems).toHaveLength(1);
    expect(problems[0]?.path).toHaveLength(JSON_DEPTH_MAX);
  });

  it('name at most ten problems, in the order they were written', () => {
    const problems = jsonProblems(Array.from({ length: 50 }, (_, i) => `${i}\u0000`));
    expect(problems.map((problem) => problem.path)).toEqual(Array.from({ length: 10 }, (_, i) => [i]));
  });

  it('accept every ordinary JSON value', () => {
    const value = { a: [1, -0.5, 'x', true, false, null, { b: 'Grüße 😀' }], '': {}, 'key with space': [] };
    expect(jsonProblems(value)).toEqual([]);
  });

  it('put the paths under the field that carries the value', () => {
    const schema = z.object({ settings: storableJson(z.record(z.string(), z.unknown())) });
    expect(issuesOf(schema, { settings: { deep: { list: ['\u0000'] } } })).toEqual([
      { path: 'settings.deep.list.0', message: NUL_MESSAGE },
    ]);
  });
});

describe('date range', () => {
  it('is the unix epoch to the end of year 9999, offsets counted', () => {
    expect(isDateInRange('1970-01-01T00:00:00Z')).toBe(true);
    expect(isDateInRange('9999-12-31T23:59:59.999Z')).toBe(true);
    expect(isDateInRange('1969-12-31T23:59:59Z')).toBe(false);
    expect(isDateInRange('1970-01-01T00:30:00+01:00')).toBe(false);
    expect(isDateInRange('9999-12-31T23:59:59-01:00')).toBe(false);
    expect(UNIX_SECONDS_MAX).toBe(253_402_300_799);
  });

  it('refuses year 0 and years past 9999 with one clear message each', () => {
    expect(issuesOf(timestampSchema, '0000-01-01T00:00:00Z')).toEqual([
      { path: '', message: DATE_RANGE_MESSAGE },
    ]);
    expect(issuesOf(timestampSchema, '+275760-09-13T00:00:00Z')).toEqual([
      { path: '', message: 'must be an ISO 8601 date-time' },
    ]);
    expect(issuesOf(timestampSchema, '2026-02-29T00:00:00Z')).toHaveLength(1);
    expect(timestampSchema.parse('2026-05-21T07:00:00.000Z')).toBe('2026-05-21T07:00:00.000Z');
  });
});
