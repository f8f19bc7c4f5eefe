// A list that grows with the fleet is answered as the one JSON array it always was, built a page at
// a time: each page read from the store is serialized by the app's serializer (checked against
// the page's schema outside production, as every answer: answers.ts) and the event loop is given
// back before the next, so that no request holds it for more than a page's work. Each page is
// built as the socket takes the one before: the answer (megabytes at 10,000 screens) is never
// held whole, which would leave it to the collector's full collections, whose pauses fall on
// whatever request is running. The pages are read in the request's own async context (its account
// and its device scope), though the socket asks for them from callbacks that run outside it.
import { AsyncResource } from 'node:async_hooks';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { z } from 'zod';

/**
 * Sends the pages as one JSON array; the reply, for the handler to return. The first page is read
 * before the answer begins, so that what refuses the request is answered as an error; a failure of
 * a later page cuts the answer short (its JSON does not parse) and is logged.
 */
export async function sendPages<T>(
  reply: FastifyReply,
  pageSchema: z.ZodType<T[]>,
  pages: AsyncIterable<T[]>,
): Promise<FastifyReply> {
  // Fastify types a serializer's input as an object; the app's serializers take any value.
  const serialize = reply.compileSerializationSchema(
    pageSchema as unknown as Record<string, unknown>,
    '200',
  ) as unknown as (page: T[]) => string;
  const iterator = pages[Symbol.asyncIterator]();
  const first = await iterator.next();
  const parts = jsonArray(first, iterator, serialize);
  // Each part is asked for in the request's context, and one at a time (no page built ahead).
  const next = AsyncResource.bind(() => parts.next());
  const stream = Readable.from(
    { [Symbol.asyncIterator]: () => ({ next, return: () => parts.return(undefined) }) },
    { objectMode: true, highWaterMark: 1 },
  );
  return reply.type('application/json; charset=utf-8').send(stream);
}

/** The JSON array whose items are those of every page, a page's items a part, from `first` on. */
async function* jsonArray<T>(
  first: IteratorResult<T[]>,
  rest: AsyncIterator<T[]>,
  serialize: (page: T[]) => string,
): AsyncGenerator<string, void, undefined> {
  let opened = false;
  for (let page = first; !page.done; page = await rest.next()) {
    if (page.value.length === 0) continue;
    // "[a,b]" without its brackets: the pages' items joined make the whole array.
    const items = serialize(page.value).slice(1, -1);
    yield opened ? `,${items}` : `[${items}`;
    opened = true;
    await nextTurn();
  }
  yield opened ? ']' : '[]';
}
