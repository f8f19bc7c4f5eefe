import { compile, TreeInterpreter, type JSONValue } from '@jmespath-community/jmespath';

/**
 * A binding's mapping (docs/data-sources.md): each field of the flow's metrics is a JMESPath
 * expression over the query's result. JMESPath rather than JSONPath: one standard with a
 * specification and compliance tests, which builds objects and lists (`[].{label: name, value:
 * n}`) and has functions (`sum`, `to_number`, `sort_by`), so rows become a chart's series with no
 * code; it cannot loop or call out, so an expression costs at most a walk of its result.
 */

type Compiled = ReturnType<typeof compile>;

/** Compiled expressions, by their text: a thousand bindings refreshing do not parse a thousand times. */
const compiled = new Map<string, Compiled>();
const COMPILED_MAX = 5000;

function compiledOf(expression: string): Compiled {
  let node = compiled.get(expression);
  if (!node) {
    node = compile(expression);
    if (compiled.size >= COMPILED_MAX) compiled.clear();
    compiled.set(expression, node);
  }
  return node;
}

/** Null when the expression parses, else the parser's words. */
export function expressionError(expression: string): string | null {
  try {
    compiledOf(expression);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Each field whose expression does not parse, as `field: why`; empty when all do. */
export function mappingErrors(mapping: Record<string, string>): string[] {
  return Object.entries(mapping).flatMap(([field, expression]) => {
    const error = expressionError(expression);
    return error === null ? [] : [`${field}: ${error}`];
  });
}

/** An expression over a result (a query's JMESPath on an HTTP kind's answer, or a mapping's field). */
export function evaluate(expression: string, data: unknown): unknown {
  return TreeInterpreter.search(compiledOf(expression), data as JSONValue);
}

/** What a mapping made of a result: the metrics, or what went wrong field by field. */
export type Mapped = { ok: true; metrics: Record<string, unknown> } | { ok: false; error: string };

/**
 * The mapping applied to `result`. A field whose expression comes to null is left out, so an
 * optional field of the variant stays unset; the metrics are then checked against the flow's
 * variant by the write, as any client's are.
 */
export function applyMapping(mapping: Record<string, string>, result: unknown): Mapped {
  const metrics: Record<string, unknown> = {};
  const errors: string[] = [];
  for (const [field, expression] of Object.entries(mapping)) {
    try {
      const value = evaluate(expression, result);
      if (value !== null && value !== undefined) metrics[field] = value;
    } catch (error) {
      errors.push(`${field}: ${(error as Error).message}`);
    }
  }
  return errors.length > 0
    ? { ok: false, error: `the mapping failed: ${errors.join('; ')}` }
    : { ok: true, metrics };
}
