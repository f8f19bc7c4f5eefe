import { describe, expect, it } from 'vitest';
import { describeIssues } from './issues';
import { parseMetrics } from './metrics';
import { ORIGINAL_VARIANT_DATA } from './testing/original-variant-data';

describe("the original clients' variant data", () => {
  it.each(ORIGINAL_VARIANT_DATA.map((c) => [c.client, c.variant, c] as const))(
    '%s %s is read in our shape',
    (_client, variant, { sent, ours }) => {
      const result = parseMetrics(variant, sent);
      expect(result.success, result.success ? '' : describeIssues(result.error)).toBe(true);
      expect(result.data).toMatchObject(ours);
    },
  );

  it('reads null as unset but still refuses what is wrong, naming the field', () => {
    const wrong = parseMetrics('value', { value: null, label: 'CPU' });
    expect(wrong.success).toBe(false);
    if (!wrong.success) expect(describeIssues(wrong.error)).toMatch(/value/);
    expect(parseMetrics('barchart', { bars: [{ value: 'x' }] }).success).toBe(false);
    expect(parseMetrics('icon', { icons: [{ type: '', label: 'x' }] }).success).toBe(false);
    expect(parseMetrics('map', { coordinates: { lat: 100, lon: 0 } }).success).toBe(false);
  });

  it("leaves a custom widget's data to its code, nulls included", () => {
    expect(parseMetrics('custom', { a: null, color: '' })).toEqual({
      success: true,
      data: { a: null, color: '' },
    });
  });

  it('keeps the gaps of a time series and the empty cells of a table', () => {
    const series = parseMetrics('timeseries', { values: [[1, null, 3]] });
    expect(series.success && series.data).toMatchObject({ values: [[1, null, 3]] });
    const table = parseMetrics('table', { cells: [[{ value: null }]] });
    expect(table.success && table.data).toMatchObject({ cells: [[{ value: null }]] });
  });
});
