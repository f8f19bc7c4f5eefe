import { describe, expect, it } from 'vitest';
import { tokenCreateSchema, tokenListQuerySchema, tokenScopeSchema } from './token';

describe('tokens', () => {
  it('has exactly the scopes full, readonly and affiliated', () => {
    expect(tokenScopeSchema.options).toEqual(['full', 'readonly', 'affiliated']);
    const result = tokenScopeSchema.safeParse('admin');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('must be one of "full", "readonly", "affiliated"');
  });

  it('creates with a scope and an optional name', () => {
    expect(tokenCreateSchema.parse({ scope: 'affiliated' })).toEqual({ scope: 'affiliated', name: '' });
    expect(tokenCreateSchema.parse({ scope: 'full', name: ' ci ' })).toEqual({ scope: 'full', name: 'ci' });
    expect(tokenCreateSchema.safeParse({ name: 'x' }).success).toBe(false);
    expect(tokenCreateSchema.safeParse({ scope: 'full', name: 'x'.repeat(101) }).success).toBe(false);
  });

  it('reads the scope filter whether it is absent, single or repeated', () => {
    expect(tokenListQuerySchema.parse({})).toEqual({ scope: [] });
    expect(tokenListQuerySchema.parse({ scope: 'full' })).toEqual({ scope: ['full'] });
    expect(tokenListQuerySchema.parse({ scope: ['full', 'readonly'] })).toEqual({
      scope: ['full', 'readonly'],
    });
    expect(tokenListQuerySchema.safeParse({ scope: ['full', 'root'] }).success).toBe(false);
  });
});
