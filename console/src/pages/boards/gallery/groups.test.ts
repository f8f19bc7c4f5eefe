import { describe, expect, it } from 'vitest';
import { VARIANTS } from '../../../../../src/shared/variants';
import { filterGroups, VARIANT_GROUPS } from './groups';

const labels = (groups: readonly { label: string }[]) => groups.map((group) => group.label);

describe("the gallery's groups of variants", () => {
  it('holds every variant exactly once', () => {
    const listed = VARIANT_GROUPS.flatMap((group) => group.variants);
    expect([...listed].sort()).toEqual([...VARIANTS].sort());
  });

  it('keeps pictures, films and pages apart from the lists, and the layout frame last', () => {
    const byLabel = new Map(VARIANT_GROUPS.map((group) => [group.label, group.variants]));
    expect(byLabel.get('Media and web pages')).toEqual(['image', 'video', 'iframe']);
    expect(byLabel.get('Lists and text')).not.toContain('image');
    expect(byLabel.get('Other')).toContain('box');
    expect(byLabel.get('Other')).toContain('custom');
    expect(labels(VARIANT_GROUPS).at(-1)).toBe('Other');
  });
});

describe('searching the gallery', () => {
  it('shows every group for an empty search', () => {
    expect(filterGroups('  ')).toEqual([...VARIANT_GROUPS]);
  });

  it('finds variants by name or description in any case, leaving out groups with none', () => {
    const byName = filterGroups(' GAUGE ');
    expect(byName.flatMap((group) => group.variants)).toContain('gauge');
    expect(byName.every((group) => group.variants.length > 0)).toBe(true);
    const byDescription = filterGroups('needle');
    expect(byDescription.flatMap((group) => group.variants)).toContain('compass');
  });

  it('finds nothing for words no variant has', () => {
    expect(filterGroups('no such widget zzz')).toEqual([]);
  });
});
