// How the service's answers leave it. Every route declares its answer's schema (which the OpenAPI
// description is generated from); checking a 4 MB answer against it took a third of the screens
// overview's time, for answers the service built itself from its own typed rows. So the check
// runs where a mistake can be caught, in tests and development, and production sends the answer
// as it is. A check alone would not do: zod drops the fields a schema does not name, which would
// hide a route that answers more than its schema (an internal field) until production sent it.
// The checked serializer therefore also fails an answer its schema would change.
import { ResponseSerializationError, serializerCompiler } from 'fastify-type-provider-zod';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';

type SerializerCompiler = Parameters<typeof serializerCompiler>[0];

/** Answers are checked unless the process runs in production (NODE_ENV=production). */
export function checksAnswersByDefault(): boolean {
  return process.env.NODE_ENV !== 'production';
}

/** JSON of the answer as it is: what the checked serializer proves it may be. */
const asItIs = () => (data: unknown) => JSON.stringify(data);

/** zod's serializer, and a failure when the schema would send anything else than the answer. */
function checked(route: SerializerCompiler) {
  const serialize = serializerCompiler(route);
  return (data: unknown): string => {
    const text = serialize(data);
    // Compared as values: the schema's order of keys need not be the answer's.
    if (!isDeepStrictEqual(JSON.parse(text), JSON.parse(JSON.stringify(data) ?? 'null'))) {
      throw new ResponseSerializationError(route.method, route.url, {
        cause: new z.ZodError([
          {
            code: 'custom',
            path: [],
            message: 'the answer has fields or values its schema would not send',
            input: data,
          },
        ]),
      });
    }
    return text;
  };
}

/** The app's serializer compiler: checked, or JSON as it is. */
export function answerSerializer(check: boolean): (route: SerializerCompiler) => (data: unknown) => string {
  return check ? checked : asItIs;
}
