import { describe, expect, it } from 'vitest';
import { SecretMask } from './secret-mask';

const VALUE = 'p@ss/word+"ü=';

describe('the mask of a run’s secrets', () => {
  const mask = new SecretMask([VALUE, 'short']);

  it('masks each value as it is, inside JSON, URL-encoded in any way and in base64', () => {
    const forms = [
      VALUE,
      JSON.stringify(VALUE).slice(1, -1),
      encodeURIComponent(VALUE),
      encodeURI(VALUE),
      new URL(`https://a.example/${VALUE}`).pathname.slice(1),
      new URL(`https://a.example/?${VALUE}`).search.slice(1),
      Buffer.from(VALUE).toString('base64'),
      Buffer.from(VALUE).toString('base64url'),
    ];
    for (const form of forms)
      expect(mask.text(`before ${form} after`), form).toMatch(/^before \*\*\*=* after$/);
    expect(mask.text('short and short')).toBe('*** and ***');
    for (const user of ['', 'a', 'ab', 'abc']) {
      const basic = Buffer.from(`${user}:${VALUE}`).toString('base64');
      // Left: the groups of the user name and of the value's first bytes with it; the rest is masked.
      expect(mask.text(`Basic ${basic}`), user).toMatch(/^Basic [A-Za-z0-9+/]{0,8}\*\*\*=*$/);
    }
    expect(mask.text('nothing here')).toBe('nothing here');
  });

  it('masks the beginning of a value that a cut line ends with, and only in a cut line', () => {
    expect(mask.line('x'.repeat(16) + 'p@ss', 20)).toBe(`${'x'.repeat(16)}***`);
    expect(mask.line('x'.repeat(10) + 'p@ss', 20)).toBe(`${'x'.repeat(10)}p@ss`);
    expect(mask.line('x'.repeat(18) + 'sh', 20)).toBe(`${'x'.repeat(18)}***`);
  });

  it('masks every string of a JSON value, keys too, and an error’s message, stack and cause', () => {
    expect(mask.json({ [VALUE]: [1, 'short', { a: `key ${VALUE}` }], n: null })).toEqual({
      '***': [1, '***', { a: 'key ***' }],
      n: null,
    });
    const error = mask.error(
      new TypeError(`GET https://a.example/?k=${encodeURIComponent(VALUE)} failed`, {
        cause: new Error('short'),
      }),
    ) as Error;
    expect(error.message).toBe('GET https://a.example/?k=*** failed');
    expect(error.name).toBe('TypeError');
    expect(error.stack).not.toContain('word');
    expect((error.cause as Error).message).toBe('***');
  });

  it('leaves everything as it is without secrets', () => {
    const none = new SecretMask([]);
    const error = new Error('e');
    expect(none.empty).toBe(true);
    expect(none.error(error)).toBe(error);
    expect(none.line('abc', 3)).toBe('abc');
  });
});
