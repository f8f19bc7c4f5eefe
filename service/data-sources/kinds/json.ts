/**
 * JSON: the source's URL answers JSON. What a mapping reads: the parsed body as it is, or, when
 * the binding's query is a JMESPath expression, what that expression makes of it (the query
 * `data.items[?active]` answers the active items). The mapping's own expressions then read that.
 */
import { applyJmesPath, checkJmesPathQuery, fetchSource } from './http-fetch';
import { SourceError, type SourceConnection, type SourceKind, type SourceQuery } from './kind';

async function run(connection: SourceConnection, query: SourceQuery, signal: AbortSignal): Promise<unknown> {
  const fault = checkJmesPathQuery(query.query, query.range);
  if (fault !== null) throw new SourceError(fault);
  const { text } = await fetchSource(connection, signal, { accept: 'application/json' });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new SourceError(`the answer is not JSON: ${(error as Error).message}`);
  }
  return applyJmesPath(body, query.query);
}

export const jsonKind: SourceKind = { run, check: checkJmesPathQuery };
