// Hostile requests for the fuzz test (fuzz.test.ts): plausible bodies built from the OpenAPI
// description, each with one value or key swapped for something a careless or hostile client
// sends. Everything comes from a seeded generator, so a failure is reproduced by its seed.

/** A small, fast, seedable generator (mulberry32): the same seed gives the same requests. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  below(n: number): number {
    return Math.floor(this.next() * n);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.below(items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }
}

/** JSON text sent as written: what JSON.stringify cannot produce (1e400, 6,000 levels). */
export class RawJson {
  constructor(readonly text: string) {}
}

const nest = (open: string, inner: string, close: string, levels: number) =>
  open.repeat(levels) + inner + close.repeat(levels);

const DEEP = 6000;

/** Values that must be refused with a 4xx wherever they land, or accepted harmlessly. */
export const HOSTILE_VALUES: readonly unknown[] = [
  // NUL, which PostgreSQL refuses in text and jsonb
  '\u0000',
  'fuzz\u0000',
  'a\u0000b\u0000c',
  '%00',
  // lone surrogates: JSON.stringify writes them as "\ud800" escapes, as a hostile client would
  '\ud800',
  '\udfff',
  'x\udc00y',
  '\udc00\ud800',
  '\ud83d', // the first half of an emoji
  '😀', // a well-formed pair: fine
  '',
  ' ',
  'x'.repeat(70_000),
  // dates outside what a timestamp holds
  '0000-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '-271821-04-20T00:00:00Z',
  '1969-12-31T23:59:59Z',
  '9999-12-31T23:59:59-01:00',
  '2026-02-29T00:00:00Z',
  '2026-01-01T00:00:00\u0000Z',
  // huge and odd numbers
  1e308,
  -1e308,
  2 ** 31,
  2 ** 53,
  -(2 ** 53),
  0.5,
  -1,
  5e-324,
  new RawJson('1e400'),
  new RawJson('-1e400'),
  new RawJson('123456789012345678901234567890'),
  new RawJson('9007199254740993'),
  new RawJson('-0'),
  // wrong types
  null,
  true,
  false,
  0,
  '1',
  [],
  {},
  [null],
  [[]],
  { '': null },
  // nesting far past any limit, with and without something bad at the bottom
  new RawJson(nest('[', '', ']', DEEP)),
  new RawJson(nest('{"a":', '1', '}', DEEP)),
  new RawJson(nest('[{"a":', '"\\u0000"', '}]', DEEP / 2)),
  new RawJson(nest('{"a":[', '"\\ud800"', ']}', DEEP / 2)),
  new RawJson(nest('[', '', ']', 100)),
  // keys
  { '\u0000': 1 },
  { 'a\u0000b': { c: 1 } },
  { '\ud800': 'x' },
  { ok: { '\udfff': [1] } },
  new RawJson('{"__proto__":{"polluted":1}}'),
  new RawJson('{"constructor":{"prototype":{"polluted":1}}}'),
];

export const HOSTILE_KEYS: readonly string[] = ['\u0000', 'a\u0000', '\ud800', 'k\udc00', '%00', '', 'x'];

/** Whole bodies that are not JSON of any use. */
export const HOSTILE_BODIES: readonly (string | Buffer)[] = [
  '\u0000',
  '"\u0000"',
  '{"a":"\u0000"}', // a raw NUL inside JSON text is not JSON
  '{',
  '',
  '[1,]',
  Buffer.from([0xff, 0xfe, 0x00]),
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]), // {"a":"<CESU surrogate>"}
];

/** Path segments as sent on the wire: NUL, broken and odd percent-encodings. */
export const HOSTILE_SEGMENTS: readonly string[] = [
  '%00',
  'a%00b',
  '%zz',
  '%',
  '%E0%A4%A',
  '%ED%A0%80', // a surrogate encoded in UTF-8: not valid UTF-8
  '%C0%80', // an overlong NUL
  '%FF',
  '%F0%9F%98',
  '%F0%9F%98%80',
  '%25',
  '%2F',
  '..',
  '%20',
  'x'.repeat(300),
  'nothing-here',
];

export const HOSTILE_QUERIES: readonly string[] = [
  'since=0000-01-01T00:00:00Z',
  'since=%2B275760-09-13T00:00:00Z',
  'since=1969-12-31T23:59:59Z',
  'since=9999-12-31T23:59:59-01:00',
  'since=%00',
  'since=2026-01-01T00:00:00%00Z',
  'since=%ED%A0%80',
  'since=%zz',
  'limit=1e400',
  'limit=99999999999999999999',
  'limit=-0',
  'limit=0x10',
  'limit=%00',
  'scope=%00',
  'scope=%FF',
  'scope=full&scope=%00',
  '%00=1',
  'a[b][c]=1',
];

/** Serialises a body, writing RawJson fragments as they are. */
export function toJsonText(body: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(body, (_key, value: unknown) => {
    if (!(value instanceof RawJson)) return value;
    raws.push(value.text);
    return `__fuzz_raw_${raws.length - 1}__`;
  });
  return raws.reduce((out, raw, index) => out.replace(`"__fuzz_raw_${index}__"`, () => raw), text);
}

/** The subset of JSON Schema (OpenAPI 3.0) that the service's zod schemas produce. */
export interface JsonSchema {
  type?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  minItems?: number;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  pattern?: string;
  format?: string;
}

/** Values that make a body reach past validation: ids of existing resources, known-good strings. */
export interface SampleHints {
  /** An existing resource's id for a field such as `board_id` or `channel_ids`. */
  idFor(key: string): string | undefined;
  /** Strings for fields whose rule a schema cannot show (`interval`, `sound_url`). */
  strings: Record<string, string>;
  /** Properties always sent, with this value, where the schema has them. */
  fixed: Record<string, unknown>;
  /** The key of the one entry a record (an object of any keys) gets. */
  recordKey: string;
}

/**
 * A plausible value of the schema: required properties always, optional ones half the time
 * (never an optional `tag`, so the fixtures keep the tags the test addresses them by).
 */
export function sample(schema: JsonSchema, key: string, hints: SampleHints, random: Random): unknown {
  const alternatives = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (alternatives) return sample(random.pick(alternatives), key, hints, random);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return random.pick(schema.enum);
  switch (schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set(schema.required ?? []);
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        if (name in hints.fixed) out[name] = hints.fixed[name];
        else if (required.has(name) || (name !== 'tag' && random.chance(0.5))) {
          out[name] = sample(property, name, hints, random);
        }
      }
      // A record (metrics, parameters, a batch by tag): keyed by a flow's tag, the batch reaches it.
      if (!schema.properties && typeof schema.additionalProperties === 'object') {
        out[hints.recordKey] = { fuzz: 1 };
      }
      return out;
    }
    case 'array': {
      if (schema.prefixItems) return schema.prefixItems.map((item) => sample(item, key, hints, random));
      const count = Math.max(schema.minItems ?? 0, random.chance(0.6) ? 1 : 0);
      return Array.from({ length: count }, () => sample(schema.items ?? {}, key, hints, random));
    }
    case 'integer':
    case 'number':
      return Math.min(schema.minimum ?? 1, schema.maximum ?? Infinity);
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'string':
      return hints.idFor(key) ?? hints.strings[key] ?? sampleString(schema);
    default:
      return 'fuzz';
  }
}

function sampleString(schema: JsonSchema): string {
  if (schema.format === 'uri') return 'https://example.com/fuzz.png';
  if (schema.format === 'date-time') return '2026-01-01T00:00:00Z';
  // "teal" is a tag, an icon name and a color at once: it passes every pattern we use.
  if (schema.pattern) return 'teal';
  return 'fuzz'.padEnd(schema.minLength ?? 1, 'z');
}

type Container = Record<string, unknown> | unknown[];

function containers(value: unknown, out: Container[] = []): Container[] {
  if (typeof value !== 'object' || value === null || value instanceof RawJson) return out;
  out.push(value as Container);
  for (const child of Object.values(value)) containers(child, out);
  return out;
}

/**
 * One hostile change to a body: a value somewhere replaced, or a key added; now and then the
 * whole body replaced. `allowed` may veto a change (see fuzz.test.ts). One change per body, so
 * the shared hostile values are never changed themselves.
 */
export function mutate(
  body: unknown,
  random: Random,
  allowed: (key: string, value: unknown) => boolean,
): unknown {
  const nodes = containers(body);
  if (nodes.length === 0 || random.chance(0.1)) return random.pick(HOSTILE_VALUES);
  const node = random.pick(nodes);
  const value = random.pick(HOSTILE_VALUES);
  if (Array.isArray(node)) {
    node[node.length === 0 ? 0 : random.below(node.length)] = value;
    return body;
  }
  const keys = Object.keys(node);
  const key = keys.length > 0 && random.chance(0.7) ? random.pick(keys) : random.pick(HOSTILE_KEYS);
  if (allowed(key, value)) node[key] = value;
  return body;
}
