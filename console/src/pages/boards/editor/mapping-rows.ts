import type { Variant } from '../../../../../src/shared/variants';
import { variantForm, type FieldKind, type FormField } from '../forms/form-model';

/** One row of a binding's mapping: a top-level field of the widget's data and its expression. */
export interface MappingRow {
  key: string;
  label: string;
  help?: string;
  kind: FieldKind;
  required: boolean;
  /** Under "More" in the data form: fields every widget has, less often set. */
  more: boolean;
  expression: string;
  /** Mapped, but no field of this variant (a binding written for another widget): the service refuses it. */
  unknown: boolean;
}

/** What an expression of a field of this kind often looks like, read off a list of rows. */
const EXAMPLES: Partial<Record<FieldKind, string>> = {
  text: '[0].name',
  longtext: '[0].description',
  number: '[0].value',
  integer: 'length(@)',
  'number-or-text': '[0].value',
  numbers: '[*].value',
  list: '[*].{label: name, value: total}',
  datetime: '[0].start',
  boolean: "[0].state == 'up'",
};

export const exampleOf = (kind: FieldKind): string | undefined => EXAMPLES[kind];

/**
 * The rows of a binding for a variant, in the data form's order (its fields, then the common ones),
 * each with the expression the mapping has for it; fields mapped that the variant does not have
 * come last, so that they can be seen and cleared.
 */
export function mappingRows(variant: Variant, mapping: Readonly<Record<string, string>>): MappingRow[] {
  const form = variantForm(variant);
  const row = (field: FormField, more: boolean): MappingRow => ({
    key: field.key,
    label: field.label,
    ...(field.help === undefined ? {} : { help: field.help }),
    kind: field.kind,
    required: field.required,
    more,
    expression: mapping[field.key] ?? '',
    unknown: false,
  });
  const rows = [
    ...form.main.map((field) => row(field, false)),
    ...form.more.map((field) => row(field, true)),
  ];
  const known = new Set(rows.map((candidate) => candidate.key));
  for (const [key, expression] of Object.entries(mapping)) {
    if (known.has(key)) continue;
    rows.push({ key, label: key, kind: 'json', required: false, more: false, expression, unknown: true });
  }
  return rows;
}
