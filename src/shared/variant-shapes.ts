import { z } from 'zod';
import { colorSchema, iconNameSchema } from './common';
import { UNIX_SECONDS_MAX } from './limits';
import { variantMetricsSchemas } from './metrics';
import { VARIANTS, type Variant } from './variants';

export type JsonSchema = z.core.JSONSchema.JSONSchema;

/**
 * The data a flow of `variant` accepts, as a JSON Schema (draft 2020-12) derived from its zod
 * schema: what a client may send (`io: 'input'`). Refinements have no JSON Schema form and are
 * left out (a video's "at least one of mp4, webm and ogg"); the service still checks them.
 */
export function variantJsonSchema(variant: Variant): JsonSchema {
  return toJsonSchema(variantMetricsSchemas[variant]);
}

function toJsonSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
}

/** One field of a variant's data, for a table: nested fields are named by their path. */
export interface VariantField {
  /** `value`, `coords.lat`; `bars[].label` for a field of each item of a list. */
  name: string;
  /** `number`, `string`, `color`, `URL`, `unix seconds`, `"asc" | "desc"`, `number[]`, `object[]`, ... */
  type: string;
  /** Required in its object (a nested field: in each item, when the list or object is given). */
  required: boolean;
  /** Accepted by every variant (`title`, `expires_at`, ...). */
  common: boolean;
  /** The schema's own description, when it has one. */
  description?: string;
  /** Limits in words: `at most 255 characters`, `0 to 1`, `at most 1000 items`. */
  constraints?: string;
}

/** The fields of any object schema, nested ones after their parent, in the schema's order. */
export function schemaFields(schema: z.ZodType): Omit<VariantField, 'common'>[] {
  return objectFields(toJsonSchema(schema), '');
}

/** The fields of a variant's data, those every variant accepts first. */
export function variantFields(variant: Variant): VariantField[] {
  const common = commonFieldNames();
  const fields = schemaFields(variantMetricsSchemas[variant]).map((field) => ({
    ...field,
    common: common.has(field.name),
  }));
  return [...fields.filter((field) => field.common), ...fields.filter((field) => !field.common)];
}

let commonNames: Set<string> | undefined;

/** Top-level fields that every variant's schema has: the original product's common fields. */
function commonFieldNames(): Set<string> {
  if (!commonNames) {
    const [first, ...rest] = VARIANTS.map((variant) =>
      Object.keys(variantJsonSchema(variant).properties ?? {}),
    );
    commonNames = new Set((first ?? []).filter((name) => rest.every((names) => names.includes(name))));
  }
  return commonNames;
}

/** A sub-schema; `true` (anything) and a missing one are the empty schema, which also means anything. */
const asSchema = (schema: unknown): JsonSchema =>
  typeof schema === 'object' && schema !== null && !Array.isArray(schema) ? (schema as JsonSchema) : {};

function objectFields(schema: JsonSchema, prefix: string): Omit<VariantField, 'common'>[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).flatMap(([key, property]) => {
    const field = asSchema(property);
    const name = `${prefix}${key}`;
    const row: Omit<VariantField, 'common'> = { name, type: typeName(field), required: required.has(key) };
    if (field.description) row.description = field.description;
    const limits = constraints(field);
    if (limits) row.constraints = limits;
    const nested = nestedObject(field, name);
    return [row, ...(nested ? objectFields(nested.schema, nested.prefix) : [])];
  });
}

/** The object whose fields are listed under a field: itself, or the items of its (nested) lists. */
function nestedObject(schema: JsonSchema, name: string): { schema: JsonSchema; prefix: string } | null {
  let current = schema;
  let path = name;
  while (current.type === 'array' && !current.prefixItems) {
    current = asSchema(current.items);
    path += '[]';
  }
  return current.type === 'object' && current.properties ? { schema: current, prefix: `${path}.` } : null;
}

// The patterns of our named string formats, as zod writes them, to name them by what they are.
const NAMED_PATTERNS = new Map<string | undefined, string>([
  [toJsonSchema(colorSchema).pattern, 'color'],
  [toJsonSchema(iconNameSchema).pattern, 'icon name'],
]);

/** Each of the types a schema allows alone: zod writes a nullable scalar as `type: [t, "null"]`. */
const alternatives = (schema: JsonSchema): JsonSchema[] =>
  schema.anyOf ?? (Array.isArray(schema.type) ? schema.type.map((type) => ({ ...schema, type })) : [schema]);

function typeName(schema: JsonSchema): string {
  const choices = alternatives(schema);
  if (choices.length > 1) return [...new Set(choices.map(typeName))].join(' | ');
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  switch (schema.type) {
    case 'array': {
      if (schema.prefixItems)
        return `[${schema.prefixItems.map((item) => typeName(asSchema(item))).join(', ')}]`;
      const item = asSchema(schema.items);
      const union = alternatives(item).length > 1 || (item.enum?.length ?? 0) > 1;
      return union ? `(${typeName(item)})[]` : `${typeName(item)}[]`;
    }
    case 'string':
      if (schema.format === 'uri') return 'URL';
      return NAMED_PATTERNS.get(schema.pattern) ?? 'string';
    case 'number':
      return schema.minimum === 0 && schema.maximum === UNIX_SECONDS_MAX ? 'unix seconds' : 'number';
    case 'integer':
    case 'boolean':
    case 'null':
    case 'object':
      return schema.type;
    default:
      return 'any';
  }
}

/** The limits a reader needs; those already said by the type (formats, unix seconds) are left out. */
function constraints(schema: JsonSchema): string {
  const choices = alternatives(schema);
  if (choices.length > 1) {
    // Named by the type they limit: `number | string` limited to 255 characters as a string.
    const limited = choices
      .map((choice) => [typeName(choice), constraints(choice)])
      .filter(([, limits]) => limits);
    return [...new Set(limited.map(([type, limits]) => `${type}: ${limits}`))].join('; ');
  }
  const limits: string[] = [];
  if (schema.maxLength !== undefined) limits.push(`at most ${schema.maxLength} characters`);
  if (schema.type === 'array' && !schema.prefixItems && schema.maxItems !== undefined) {
    limits.push(`at most ${schema.maxItems} items`);
  }
  if (typeName(schema) !== 'unix seconds') {
    // zod bounds every integer by the safe range: not a limit anyone needs told.
    const min = schema.minimum === Number.MIN_SAFE_INTEGER ? undefined : schema.minimum;
    const max = schema.maximum === Number.MAX_SAFE_INTEGER ? undefined : schema.maximum;
    if (min !== undefined && max !== undefined) limits.push(`${min} to ${max}`);
    else if (min !== undefined) limits.push(`at least ${min}`);
    else if (max !== undefined) limits.push(`at most ${max}`);
  }
  return limits.join(', ');
}
