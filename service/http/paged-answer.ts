// A list that grows with the fleet is answered as the one JSON array it always was, built a page at
// a time: each page read from the store is serialized by the app's serializer (checked against
// the page's schema outside production, as every answer: answers.ts) and the event loop is given
// back before the next, so that no request holds it for more than a page's work; the answer is
// written to the socket a page at a time. The pages are
// read in the request's own async context (its account and its device scope), not from a stream
// pulled by the socket, whose callbacks run outside it.
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { z } from 'zod';

/** Sends the pages as one JSON array; the reply, for the handler to return. */
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
  const parts: string[] = [];
  for await (const page of pages) {
    if (page.length === 0) continue;
    // "[a,b]" without its brackets: the pages' items joined make the whole array.
    parts.push(serialize(page).slice(1, -1));
    await nextTurn();
  }
  // Written a part at a time, as the socket takes them: joined, the answer (megabytes at 10,000
  // screens) would be copied and encoded whole in one turn of the loop.
  return reply.type('application/json; charset=utf-8').send(Readable.from(jsonArray(parts)));
}

/** The JSON array whose items are the items of `parts`, each part items joined by commas. */
function* jsonArray(parts: readonly string[]): Generator<string> {
  yield '[';
  for (const [index, part] of parts.entries()) yield index === 0 ? part : `,${part}`;
  yield ']';
}
