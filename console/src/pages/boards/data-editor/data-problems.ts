import {
  findNodeAtLocation,
  parseTree,
  printParseErrorCode,
  type JSONPath,
  type Node,
  type ParseError,
} from 'jsonc-parser';
import { z } from 'zod';
import { toFieldIssues } from '../../../../../src/shared/issues';
import { parseMetrics, type MetricsData } from '../../../../../src/shared/metrics';
import type { Variant } from '../../../../../src/shared/variants';

/** One thing wrong with the text of a flow's data, where it is and what the API would say. */
export interface DataProblem {
  /** Character offsets into the text. */
  from: number;
  to: number;
  /** 1-based line of `from`. */
  line: number;
  /** The field as the API names it ("range.0.color"); empty for the text as a whole. */
  path: string;
  message: string;
}

type ErrorName = ReturnType<typeof printParseErrorCode>;

// jsonc-parser names its errors for programmers; an operator reads these instead.
const SYNTAX_MESSAGES: Record<ErrorName, string> = {
  InvalidSymbol:
    'is not JSON: strings and field names need double quotes, and true, false, null are lower case',
  InvalidNumberFormat: 'this number is not written as JSON allows (no leading zeros, no hex)',
  PropertyNameExpected: 'a field name in double quotes is expected',
  ValueExpected: 'a value is expected',
  ColonExpected: 'a colon (:) is missing after the field name',
  CommaExpected: 'a comma is missing',
  CloseBraceExpected: 'a comma or } is missing',
  CloseBracketExpected: 'a comma or ] is missing',
  EndOfFileExpected: 'nothing may follow the data: one object only',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'comments are not allowed in JSON',
  UnexpectedEndOfString: 'the string is not closed with a double quote',
  UnexpectedEndOfNumber: 'the number is cut short',
  InvalidUnicode: 'a \\u escape needs four hexadecimal digits',
  InvalidEscapeCharacter: 'unknown escape: after \\ only " \\ / b f n r t u may follow',
  InvalidCharacter: 'a tab or other control character must be escaped inside a string (\\t, \\n)',
  '<unknown ParseErrorCode>': 'this is not valid JSON',
};

const STRICT = { allowTrailingComma: false, disallowComments: true } as const;

// The offsets where the lines of the last text checked begin: data with thousands of bad items
// gets thousands of problems, each needing its line.
let lines: { text: string; starts: number[] } = { text: '', starts: [0] };

/** 1-based line of `offset`. */
function lineAt(text: string, offset: number): number {
  if (lines.text !== text) {
    const starts = [0];
    for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
      starts.push(index + 1);
    }
    lines = { text, starts };
  }
  const { starts } = lines;
  // The last line that starts at or before `offset`.
  let [low, high] = [0, starts.length - 1];
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if ((starts[middle] ?? 0) <= offset) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}

function problemAt(text: string, from: number, to: number, path: string, message: string): DataProblem {
  const start = Math.min(from, text.length);
  return {
    from: start,
    to: Math.min(Math.max(to, start), text.length),
    line: lineAt(text, start),
    path,
    message,
  };
}

const TRAILING_COMMA = 'JSON allows no comma after the last item';

const MISSING: ReadonlySet<ErrorName> = new Set([
  'ColonExpected',
  'CommaExpected',
  'CloseBraceExpected',
  'CloseBracketExpected',
]);

/** The offset just after the last character before `offset` that is not white space. */
function afterPrevious(text: string, offset: number): number {
  let index = Math.min(offset, text.length);
  while (index > 0 && /\s/.test(text[index - 1] ?? '')) index -= 1;
  return index;
}

/**
 * The syntax errors, without their echoes: after an error the parser recovers as it can, and
 * what it then finds at the very next token, or further on the same line, follows from the first.
 */
function syntaxProblems(text: string, errors: ParseError[]): DataProblem[] {
  const seen = new Set<number>();
  let previousEnd: number | undefined;
  return errors.flatMap(({ error, offset, length }) => {
    const echo =
      previousEnd !== undefined && previousEnd <= offset && !text.slice(previousEnd, offset).trim();
    previousEnd = offset + length;
    const name = printParseErrorCode(error);
    // The parser stops at the token after the gap; the comma (or colon, or bracket) belongs right
    // after the token before it, often on the line above.
    const before = afterPrevious(text, offset);
    const trailing = text[before - 1] === ',' && /[}\]]/.test(text[offset] ?? '');
    const [from, to] = trailing
      ? [before - 1, before]
      : MISSING.has(name)
        ? [before, before]
        : [offset, offset + length];
    const message = trailing ? TRAILING_COMMA : SYNTAX_MESSAGES[name];
    const problem = problemAt(text, from, to, '', message);
    if (echo || seen.has(problem.line)) return [];
    seen.add(problem.line);
    if (offset >= text.trimEnd().length) problem.message = `unexpected end of the data: ${problem.message}`;
    return [problem];
  });
}

/** The property key of a node held by a property, or else the node's first character. */
function handleOf(node: Node): [number, number] {
  const key = node.parent?.type === 'property' ? node.parent.children?.[0] : undefined;
  return key ? [key.offset, key.offset + key.length] : [node.offset, node.offset + 1];
}

/**
 * Where an issue at `path` shows: a value at its own range (a whole object or array by its key
 * or opening bracket, so a long list is not underlined from end to end); a key named by the
 * issue at the key; a field that is missing at the object that lacks it.
 */
function rangeOf(tree: Node, path: JSONPath, atKey: boolean): [number, number] {
  const node = findNodeAtLocation(tree, path);
  if (node) {
    if (atKey || node.type === 'object' || node.type === 'array') return handleOf(node);
    return [node.offset, node.offset + node.length];
  }
  for (let depth = path.length - 1; depth >= 0; depth -= 1) {
    const holder = findNodeAtLocation(tree, path.slice(0, depth));
    if (holder) return handleOf(holder);
  }
  return handleOf(tree);
}

/**
 * What the service's JSON parser (Fastify's secure-json-parse) refuses outright, whatever the
 * variant: a `__proto__` key, and a `constructor` object with a `prototype` key.
 */
function poisonedKeys(text: string, node: Node): DataProblem[] {
  const [key, value] = node.type === 'property' ? (node.children ?? []) : [];
  const poisoned =
    key?.value === '__proto__'
      ? 'the key "__proto__" is not allowed'
      : key?.value === 'constructor' && value && findNodeAtLocation(value, ['prototype'])
        ? 'a "constructor" object may not hold a "prototype" key'
        : undefined;
  const own = key && poisoned ? [problemAt(text, key.offset, key.offset + key.length, '', poisoned)] : [];
  return [...own, ...(node.children ?? []).flatMap((child) => poisonedKeys(text, child))];
}

/** The issues of the API's own check (parseMetrics, toFieldIssues), each at its place in the text. */
function schemaProblems(variant: Variant, text: string, tree: Node, value: unknown): DataProblem[] {
  const result = parseMetrics(variant, value);
  if (result.success) return [];
  return result.error.issues.flatMap((issue) => {
    const path = issue.path.filter((part): part is string | number => typeof part !== 'symbol');
    // One issue at a time through the API's function, so each message keeps its place in the text.
    return toFieldIssues(new z.ZodError([issue])).map((field, index) => {
      const unknownKey = issue.code === 'unrecognized_keys' ? issue.keys[index] : undefined;
      const at = unknownKey === undefined ? path : [...path, unknownKey];
      // storableJson's problems with a key itself ("as a key, must not contain ...").
      const atKey = unknownKey !== undefined || field.message.startsWith('as a key');
      const [from, to] = rangeOf(tree, at, atKey);
      return problemAt(text, from, to, field.path, field.message);
    });
  });
}

/** Parses as JSON.parse does, or says where and why not (for text jsonc-parser lets through). */
function parseStrictly(text: string): { value: unknown } | { problem: DataProblem } {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const offset = Number(/position (\d+)/.exec(message)?.[1] ?? 0);
    return { problem: problemAt(text, offset, offset + 1, '', `is not JSON: ${message}`) };
  }
}

/**
 * What is wrong with `text` as the data of a flow of `variant`: JSON syntax first (strict: no
 * comments, no trailing commas), then exactly the check of `PUT /flows/:tag/metrics`, with its
 * messages and paths. Empty when the API would accept the text.
 */
export function dataProblems(variant: Variant, text: string): DataProblem[] {
  try {
    const errors: ParseError[] = [];
    const tree = parseTree(text, errors, STRICT);
    if (errors.length || !tree) return syntaxProblems(text, errors);
    const parsed = parseStrictly(text);
    if ('problem' in parsed) return [parsed.problem];
    const poisoned = poisonedKeys(text, tree);
    if (poisoned.length) return poisoned;
    return schemaProblems(variant, text, tree, parsed.value);
  } catch (error) {
    // The parser and the walks recurse: thousands of levels of nesting run out of stack, where
    // the service answers as here.
    if (!(error instanceof RangeError)) throw error;
    return [problemAt(text, 0, 1, '', 'is nested too deeply')];
  }
}

/** The data in `text` when it is a JSON object (whether or not it fits a variant), else null. */
export function parseData(text: string): MetricsData | null {
  const errors: ParseError[] = [];
  parseTree(text, errors, STRICT);
  if (errors.length) return null;
  const parsed = parseStrictly(text);
  if (!('value' in parsed)) return null;
  const { value } = parsed;
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as MetricsData) : null;
}

/** The data as the editor shows it: two spaces of indentation. */
export const formatData = (data: unknown): string => JSON.stringify(data, null, 2);
