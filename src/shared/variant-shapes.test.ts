import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { VARIANT_EXAMPLES } from './variant-examples';
import { schemaFields, variantFields, variantJsonSchema } from './variant-shapes';
import { VARIANTS } from './variants';

const field = (variant: (typeof VARIANTS)[number], name: string) =>
  variantFields(variant).find((candidate) => candidate.name === name);

describe('the JSON Schema of a variant', () => {
  it.each(VARIANTS)('is a JSON object schema for %s that keeps unknown fields', (variant) => {
    const schema = variantJsonSchema(variant);
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.type).toBe('object');
    // Unknown fields pass through, as the service keeps them.
    expect(schema.additionalProperties).toEqual({});
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
  });

  // custom knows no fields of its own: its example's are kept, not named.
  it.each(VARIANTS.filter((variant) => variant !== 'custom'))(
    'names every field of the example of %s',
    (variant) => {
      const known = Object.keys(variantJsonSchema(variant).properties ?? {});
      expect(known).toEqual(expect.arrayContaining(Object.keys(VARIANT_EXAMPLES[variant].example)));
    },
  );

  it('names what a client must send, as it sends it', () => {
    const gauge = variantJsonSchema('gauge');
    expect(gauge.required).toEqual(['value']);
    expect(gauge.properties?.['range']).toMatchObject({ type: 'array', maxItems: 1000 });
  });
});

describe('the fields of a variant', () => {
  it.each(VARIANTS)('of %s start with the common ones, and name each field once', (variant) => {
    const fields = variantFields(variant);
    const common = fields.filter((candidate) => candidate.common).map((candidate) => candidate.name);
    expect(common).toEqual(['title', 'expires_at', 'opacity', 'priority', 'icon', 'link']);
    expect(fields.slice(0, common.length).every((candidate) => candidate.common)).toBe(true);
    expect(new Set(fields.map((candidate) => candidate.name)).size).toBe(fields.length);
  });

  it('name each type by what it is', () => {
    expect(field('value', 'value')).toEqual({
      name: 'value',
      type: 'number | string',
      required: true,
      common: false,
      constraints: 'string: at most 255 characters',
    });
    expect(field('value', 'expires_at')).toEqual({
      name: 'expires_at',
      type: 'unix seconds',
      required: false,
      common: true,
    });
    expect(field('value', 'link')?.type).toBe('URL');
    expect(field('value', 'icon')?.type).toBe('icon name');
    expect(field('value', 'color')?.type).toBe('color');
    expect(field('value', 'delta_type')?.type).toBe('"normal" | "inverse" | "percent" | "absolute"');
    expect(field('value', 'sparkline')).toMatchObject({
      type: 'number[]',
      constraints: 'at most 10000 items',
    });
    expect(field('value', 'rounding')).toMatchObject({ type: 'integer', constraints: '0 to 10' });
    expect(field('value', 'priority')).toMatchObject({ type: 'integer' });
    expect(field('value', 'priority')?.constraints).toBeUndefined();
    expect(field('barchart', 'sort')?.type).toBe('boolean | "asc" | "desc"');
    expect(field('scatterplot', 'values')?.type).toBe('[number, number][]');
    expect(field('timeseries', 'values')?.type).toBe('(number | null)[][]');
    expect(field('timeseries', 'interval_count')?.constraints).toBe('at least 1');
    expect(field('map', 'markers')?.type).toBe('object[]');
    expect(field('upstatus', 'last_down')?.type).toBe('unix seconds | string');
  });

  it('list the fields of nested objects and of list items under their path', () => {
    expect(field('map', 'coords')).toMatchObject({ type: 'object', required: true });
    expect(field('map', 'coords.lat')).toMatchObject({
      type: 'number',
      required: true,
      constraints: '-90 to 90',
    });
    expect(field('barchart', 'bars')).toMatchObject({ type: 'object[]', required: true });
    expect(field('barchart', 'bars[].value')).toMatchObject({ type: 'number', required: true });
    expect(field('barchart', 'bars[].label')).toMatchObject({ required: false });
    expect(field('table', 'cells[][].value')?.type).toBe('number | string | null');
    const names = variantFields('gauge').map((candidate) => candidate.name);
    expect(names.indexOf('range[].from')).toBe(names.indexOf('range') + 1);
  });

  it('carry the description a schema gives', () => {
    const schema = z.looseObject({
      speed: z.number().min(0).describe('Metres per second.'),
      samples: z.array(z.object({ at: z.number().meta({ description: 'When it was taken.' }) })).optional(),
    });
    expect(schemaFields(schema)).toEqual([
      {
        name: 'speed',
        type: 'number',
        required: true,
        description: 'Metres per second.',
        constraints: 'at least 0',
      },
      { name: 'samples', type: 'object[]', required: false },
      { name: 'samples[].at', type: 'number', required: true, description: 'When it was taken.' },
    ]);
  });
});
