import { describe, expect, it } from 'vitest';
import { channelCreateSchema, channelUpdateSchema } from './channel';
import { idSchema, tagSchema } from './common';
import { flowCreateSchema, flowUpdateSchema, isFlowReady } from './flow';
import { VARIANTS } from './variants';

describe('ids and tags', () => {
  it('keeps ids as non-empty strings', () => {
    expect(idSchema.parse('01J0ABC')).toBe('01J0ABC');
    expect(idSchema.safeParse('').success).toBe(false);
    expect(idSchema.safeParse(42).success).toBe(false);
  });

  it('keeps tags URL-safe', () => {
    for (const good of ['sales', 'cpu_load', 'eu-west.1', 'A1'])
      expect(tagSchema.safeParse(good).success).toBe(true);
    for (const bad of ['', '-lead', 'has space', 'slash/inside', 'x'.repeat(101)]) {
      expect(tagSchema.safeParse(bad).success, bad).toBe(false);
    }
  });
});

describe('flows', () => {
  it('creates with a tag and one of the variants, type default', () => {
    expect(flowCreateSchema.parse({ tag: 'cpu', variant: 'gauge' })).toEqual({
      tag: 'cpu',
      variant: 'gauge',
      type: 'default',
    });
    for (const variant of VARIANTS)
      expect(flowCreateSchema.safeParse({ tag: 't', variant }).success).toBe(true);
  });

  it('takes the types default, affiliated and virtualized only', () => {
    for (const type of ['default', 'affiliated', 'virtualized']) {
      expect(flowCreateSchema.safeParse({ tag: 't', variant: 'value', type }).success).toBe(true);
    }
    expect(flowCreateSchema.safeParse({ tag: 't', variant: 'value', type: 'other' }).success).toBe(false);
  });

  it('refuses an unknown variant with a readable message', () => {
    const result = flowCreateSchema.safeParse({ tag: 't', variant: 'sparkles' });
    expect(result.error?.issues[0]).toMatchObject({
      path: ['variant'],
      message: 'must be a known widget variant',
    });
  });

  it('updates errored and the tag', () => {
    expect(flowUpdateSchema.parse({ errored: true })).toEqual({ errored: true });
    expect(flowUpdateSchema.safeParse({ errored: 'yes' }).success).toBe(false);
    expect(flowUpdateSchema.safeParse({ variant: 'value' }).success).toBe(false);
  });

  it('is ready at once without a source, and with a source once its parameters are set', () => {
    expect(isFlowReady({ source: null, parameters: null })).toBe(true);
    expect(isFlowReady({ source: 'script-1', parameters: null })).toBe(false);
    expect(isFlowReady({ source: 'script-1', parameters: { url: 'https://x' } })).toBe(true);
  });
});

describe('channels', () => {
  it('creates only virtual channels: a parent is required', () => {
    expect(channelCreateSchema.parse({ name: 'EU', parent_channel_id: 'c1' })).toEqual({
      name: 'EU',
      parent_channel_id: 'c1',
    });
    const result = channelCreateSchema.safeParse({ name: 'EU' });
    expect(result.error?.issues[0]?.path).toEqual(['parent_channel_id']);
  });

  it('renames and retags', () => {
    expect(channelUpdateSchema.parse({ name: 'US', tag: 'us' })).toEqual({ name: 'US', tag: 'us' });
    expect(channelUpdateSchema.safeParse({ parent_channel_id: 'x' }).success).toBe(false);
  });
});
