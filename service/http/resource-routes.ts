import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../domain/errors';
import type { Permission } from './auth';
import { noQuery } from './strict-requests';

type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

/** What every standard route of a resource declares. */
interface RouteEntry {
  summary: string;
  permission: Permission;
}

interface ReadEntry extends RouteEntry {
  /** A query parameter is refused (400) rather than ignored (`noQuery`). */
  noQuery?: true;
}

/**
 * A resource's standard routes, each one present only when the resource has it: list, get, create,
 * update and delete, on `path` and `path/:id`. A `null` or `false` from a read or an action is a
 * 404 naming the resource; so is what a device-bound token may not see, which the reads do not
 * find (visibility/scope.ts).
 */
export interface ResourceTable<Item, Create, Update> {
  /** The collection, `/flows`; one item is at `/flows/:id`. */
  path: `/${string}`;
  /** The OpenAPI tag of every route. */
  tag: string;
  /** One item, as a 404 names it: `flow 12`. */
  noun: string;
  params: z.ZodType<{ id: string }>;
  item: z.ZodType<Item>;
  list?: ReadEntry & { read(): Promise<Item[]> };
  get?: ReadEntry & { read(id: string): Promise<Item | null> };
  create?: RouteEntry & { body: z.ZodType<Create>; run(body: Create): Promise<Item> };
  update?: RouteEntry & {
    body: z.ZodType<Update>;
    run(id: string, body: Update): Promise<Item | null>;
  };
  delete?: RouteEntry & { run(id: string): Promise<boolean> };
}

/** A body's schema as the route registers it (see resourceRoutes). */
const bodyOf = (entry: { body: z.ZodType }): z.ZodType => entry.body;

/**
 * Registers the table's routes on `app`, in the order list, get, create, update, delete.
 *
 * The type provider cannot resolve the types of a schema whose type is a type parameter, so the
 * routes register the schemas as plain `z.ZodType`s and the body is read back as the type its schema
 * parses to. The table ties each schema to its reads and actions (`z.ZodType<Item>`, `z.ZodType<Create>`),
 * so a schema that does not fit them still fails to compile where the table is written.
 */
export function resourceRoutes<Item, Create, Update>(
  app: ZodApp,
  table: ResourceTable<Item, Create, Update>,
): void {
  const { path, tag, noun, params } = table;
  const item: z.ZodType = table.item;
  const one = `${path}/:id`;
  const strictQuery = (entry: ReadEntry) => (entry.noQuery ? { querystring: noQuery } : {});

  const { list, get, create, update } = table;
  if (list) {
    app.get(
      path,
      {
        config: { permission: list.permission },
        schema: {
          tags: [tag],
          summary: list.summary,
          ...strictQuery(list),
          response: { 200: z.array(item) },
        },
      },
      () => list.read(),
    );
  }

  if (get) {
    app.get(
      one,
      {
        config: { permission: get.permission },
        schema: { tags: [tag], summary: get.summary, params, ...strictQuery(get), response: { 200: item } },
      },
      async (request) => {
        const found = await get.read(request.params.id);
        if (found === null) throw notFound(`${noun} ${request.params.id}`);
        return found;
      },
    );
  }

  if (create) {
    app.post(
      path,
      {
        config: { permission: create.permission },
        schema: { tags: [tag], summary: create.summary, body: bodyOf(create), response: { 201: item } },
      },
      // The validator parsed the body with `create.body`: it is a `Create`.
      async (request, reply) => reply.status(201).send(await create.run(request.body as Create)),
    );
  }

  if (update) {
    app.patch(
      one,
      {
        config: { permission: update.permission },
        schema: {
          tags: [tag],
          summary: update.summary,
          params,
          body: bodyOf(update),
          response: { 200: item },
        },
      },
      async (request) => {
        // The validator parsed the body with `update.body`: it is an `Update`.
        const updated = await update.run(request.params.id, request.body as Update);
        if (updated === null) throw notFound(`${noun} ${request.params.id}`);
        return updated;
      },
    );
  }

  const remove = table.delete;
  if (remove) {
    app.delete(
      one,
      {
        config: { permission: remove.permission },
        schema: { tags: [tag], summary: remove.summary, params, response: { 204: z.null() } },
      },
      async (request, reply) => {
        if (!(await remove.run(request.params.id))) throw notFound(`${noun} ${request.params.id}`);
        return reply.status(204).send(null);
      },
    );
  }
}
