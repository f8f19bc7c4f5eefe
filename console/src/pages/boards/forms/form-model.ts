import { z } from 'zod';
import { colorSchema, iconNameSchema } from '../../../../../src/shared/common';
import { UNIX_SECONDS_MAX } from '../../../../../src/shared/limits';
import { variantJsonSchema, type JsonSchema } from '../../../../../src/shared/variant-shapes';
import type { Variant } from '../../../../../src/shared/variants';
import { fieldWords } from './field-words';

/**
 * A variant's data form, read off the JSON Schema its zod schema emits (the one the service checks
 * data with and the renderer draws it by), so a field added to a variant gets its control without
 * a form written for it. Pure: what each field is, never how it is drawn (data-form.tsx).
 */
export type FieldKind =
  | 'text'
  | 'longtext'
  | 'number'
  | 'integer'
  | 'number-or-text'
  | 'boolean'
  | 'choice'
  | 'color'
  | 'icon'
  | 'url'
  | 'datetime'
  | 'date'
  | 'numbers'
  | 'pair'
  | 'list'
  | 'object'
  | 'json';

export interface FormField {
  /** The key in its object, or the index in its list (items). */
  key: string;
  label: string;
  help?: string;
  kind: FieldKind;
  required: boolean;
  /** For `choice`: the values offered, as JSON values. */
  choices?: { value: string | boolean; label: string }[];
  /** Bounds of a number. */
  min?: number;
  max?: number;
  /** For `list`: what each item is; for `object`: its fields; for `pair`: its two parts. */
  item?: FormField;
  fields?: FormField[];
  parts?: [string, string];
  /** A `numbers` list that may hold gaps (null). */
  nullable?: boolean;
}

export interface VariantForm {
  /** The fields of the variant itself, the title first. */
  main: FormField[];
  /** The fields every variant accepts, less often set (stale after, opacity, link, ...). */
  more: FormField[];
}

const patternOf = (schema: z.ZodType) => (z.toJSONSchema(schema) as JsonSchema).pattern;
const COLOR_PATTERN = patternOf(colorSchema);
const ICON_PATTERN = patternOf(iconNameSchema);
/** Fields every variant accepts; `title` is shown first of the main ones, the rest under "more". */
const COMMON_MORE = new Set(['expires_at', 'opacity', 'priority', 'icon', 'link']);

const asSchema = (schema: unknown): JsonSchema =>
  typeof schema === 'object' && schema !== null && !Array.isArray(schema) ? (schema as JsonSchema) : {};

/** The types a schema allows, one schema each: zod writes unions as anyOf, nullable scalars as `type: [t, "null"]`. */
const alternatives = (schema: JsonSchema): JsonSchema[] =>
  schema.anyOf?.map(asSchema) ??
  (Array.isArray(schema.type) ? schema.type.map((type) => ({ ...schema, type })) : [schema]);

const isUnixSeconds = (schema: JsonSchema) =>
  schema.type === 'number' && schema.minimum === 0 && schema.maximum === UNIX_SECONDS_MAX;

const boundsOf = (schema: JsonSchema): Pick<FormField, 'min' | 'max'> => {
  const bounds: Pick<FormField, 'min' | 'max'> = {};
  if (schema.minimum !== undefined && schema.minimum !== Number.MIN_SAFE_INTEGER) bounds.min = schema.minimum;
  if (schema.maximum !== undefined && schema.maximum !== Number.MAX_SAFE_INTEGER) bounds.max = schema.maximum;
  return bounds;
};

function stringKind(schema: JsonSchema): FieldKind {
  if (schema.pattern === COLOR_PATTERN) return 'color';
  if (schema.pattern === ICON_PATTERN) return 'icon';
  if (schema.format === 'uri') return 'url';
  if (schema.format === 'date') return 'date';
  if (schema.enum) return 'choice';
  return (schema.maxLength ?? 0) > 255 ? 'longtext' : 'text';
}

const choiceLabel = (value: unknown) =>
  value === true ? 'Yes' : value === false ? 'No' : String(value).replace(/_/g, ' ');

/** What a field is, from its schema; `path` is where it sits (its words are looked up by it). */
function fieldOf(key: string, schema: JsonSchema, required: boolean, path: string): FormField {
  const words = fieldWords(path, key);
  const help = words.help ?? schema.description;
  const base = { key, required, label: words.label, ...(help === undefined ? {} : { help }) };
  const choices = alternatives(schema);
  if (choices.length > 1) {
    const types = new Set(choices.map((choice) => choice.type));
    if (types.has('array') || types.has('object')) return { ...base, kind: 'json' };
    if (types.has('string') && (types.has('number') || types.has('integer')))
      return { ...base, kind: 'number-or-text' };
    // A flag or one of some words (a bar chart's sort: no, yes, "asc", "desc").
    const values = choices.flatMap((choice) =>
      choice.type === 'boolean' ? [true, false] : (choice.enum ?? []),
    );
    if (values.every((value) => typeof value === 'string' || typeof value === 'boolean')) {
      return {
        ...base,
        kind: 'choice',
        choices: (values as (string | boolean)[]).map((value) => ({ value, label: choiceLabel(value) })),
      };
    }
    return { ...base, kind: 'json' };
  }
  switch (schema.type) {
    case 'string': {
      const kind = stringKind(schema);
      if (kind !== 'choice') return { ...base, kind };
      const values = (schema.enum ?? []).filter((value): value is string => typeof value === 'string');
      return { ...base, kind, choices: values.map((value) => ({ value, label: choiceLabel(value) })) };
    }
    case 'number':
      return isUnixSeconds(schema)
        ? { ...base, kind: 'datetime' }
        : { ...base, kind: 'number', ...boundsOf(schema) };
    case 'integer':
      return { ...base, kind: 'integer', ...boundsOf(schema) };
    case 'boolean':
      return { ...base, kind: 'boolean' };
    case 'object':
      return schema.properties
        ? { ...base, kind: 'object', fields: fieldsOf(schema, `${path}.`) }
        : { ...base, kind: 'json' };
    case 'array':
      return arrayField(base, schema, path);
    default:
      return { ...base, kind: 'json' };
  }
}

function arrayField(base: Omit<FormField, 'kind'>, schema: JsonSchema, path: string): FormField {
  if (schema.prefixItems) {
    const parts = fieldWords(path, base.key).parts ?? ['First', 'Second'];
    return { ...base, kind: schema.prefixItems.length === 2 ? 'pair' : 'json', parts };
  }
  const item = asSchema(schema.items);
  const itemTypes = alternatives(item).map((choice) => choice.type);
  // Long series of plain numbers are typed as a line of numbers, not a field each.
  if (itemTypes.every((type) => type === 'number' || type === 'null') && itemTypes.includes('number')) {
    return { ...base, kind: 'numbers', nullable: itemTypes.includes('null') };
  }
  return { ...base, kind: 'list', item: fieldOf('', item, true, `${path}[]`) };
}

function fieldsOf(schema: JsonSchema, prefix: string): FormField[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([key, property]) =>
    fieldOf(key, asSchema(property), required.has(key), `${prefix}${key}`),
  );
}

const forms = new Map<Variant, VariantForm>();

/** The form of a variant's data: its own fields (title first), and the common ones under "more". */
export function variantForm(variant: Variant): VariantForm {
  let form = forms.get(variant);
  if (!form) {
    const fields = fieldsOf(variantJsonSchema(variant), '');
    const title = fields.filter((field) => field.key === 'title');
    form = {
      main: [...title, ...fields.filter((field) => field.key !== 'title' && !COMMON_MORE.has(field.key))],
      more: fields.filter((field) => COMMON_MORE.has(field.key)),
    };
    forms.set(variant, form);
  }
  return form;
}
