import { describe, expect, it } from 'vitest';
import { VARIANTS } from '../../../../../src/shared/variants';
import { variantForm, type FormField } from './form-model';

const byKey = (fields: FormField[], key: string) => fields.find((field) => field.key === key);

describe('the data forms generated from the variant shapes', () => {
  it('gives every variant a form, title first, the common fields under "more"', () => {
    for (const variant of VARIANTS) {
      const { main, more } = variantForm(variant);
      expect(main[0]?.key, variant).toBe('title');
      expect(more.map((field) => field.key).sort(), variant).toEqual(
        ['expires_at', 'icon', 'link', 'opacity', 'priority'].sort(),
      );
      // Every field is labelled in words, never by its raw key.
      for (const field of [...main, ...more]) expect(field.label, `${variant}.${field.key}`).not.toMatch(/_/);
    }
  });

  it('picks the control by what a field is', () => {
    const kinds = (variant: (typeof VARIANTS)[number]) =>
      Object.fromEntries(
        [...variantForm(variant).main, ...variantForm(variant).more].map((field) => [field.key, field.kind]),
      );
    expect(kinds('value')).toMatchObject({
      value: 'number-or-text',
      color: 'color',
      delta: 'number',
      delta_type: 'choice',
      sparkline: 'numbers',
      abbreviate: 'boolean',
      rounding: 'integer',
      expires_at: 'datetime',
      icon: 'icon',
      link: 'url',
    });
    expect(kinds('tickertape')).toMatchObject({ messages: 'list' });
    expect(byKey(variantForm('tickertape').main, 'messages')?.item?.kind).toBe('longtext');
    expect(kinds('countdown')).toMatchObject({ time: 'datetime', message: 'text' });
    expect(kinds('text')).toMatchObject({ text: 'longtext', alignment: 'choice' });
    expect(kinds('map')).toMatchObject({ coords: 'object', markers: 'list' });
    expect(kinds('weather')).toMatchObject({ unit: 'choice', is_day: 'boolean', days: 'list' });
  });

  it('edits series and rows as lists of their items', () => {
    const series = byKey(variantForm('graph').main, 'series');
    expect(series?.kind).toBe('list');
    expect(series?.item?.kind).toBe('object');
    expect(byKey(series?.item?.fields ?? [], 'values')?.kind).toBe('numbers');
    const rows = byKey(variantForm('table').main, 'cells');
    expect(rows?.item?.kind).toBe('list');
    expect(rows?.item?.item?.fields?.map((field) => field.key)).toContain('value');
    const points = byKey(variantForm('timechart').main, 'series')?.item?.fields;
    expect(byKey(points ?? [], 'values')?.item).toMatchObject({
      kind: 'pair',
      parts: ['Time (unix seconds)', 'Value'],
    });
    expect(byKey(variantForm('timeseries').main, 'values')?.item).toMatchObject({
      kind: 'numbers',
      nullable: true,
    });
    expect(byKey(variantForm('barchart').main, 'sort')?.choices?.map((choice) => choice.value)).toEqual([
      true,
      false,
      'asc',
      'desc',
    ]);
  });
});
