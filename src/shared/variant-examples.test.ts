import { describe, expect, it } from 'vitest';
import { metricsDataSchema, parseMetrics, variantMetricsSchemas } from './metrics';
import { VARIANT_EXAMPLES } from './variant-examples';
import { VARIANTS } from './variants';

describe('the example data of each variant', () => {
  it('covers every variant, and no other', () => {
    expect(Object.keys(VARIANT_EXAMPLES).sort()).toEqual([...VARIANTS].sort());
  });

  it.each(VARIANTS)('fits the schema of %s and can be stored', (variant) => {
    const { example } = VARIANT_EXAMPLES[variant];
    expect(variantMetricsSchemas[variant].safeParse(example).error).toBeUndefined();
    expect(metricsDataSchema.safeParse(example).success).toBe(true);
    // As the service checks a write: the data comes back as it was sent, nothing dropped.
    expect(parseMetrics(variant, example).data).toEqual(example);
  });

  it.each(VARIANTS)('of %s is real data with a one-sentence description', (variant) => {
    const { description, example } = VARIANT_EXAMPLES[variant];
    expect(Object.keys(example).length).toBeGreaterThan(0);
    expect(description).toMatch(/^[A-Z][^.]*(\.[^ .][^.]*)*\.$/);
  });
});
