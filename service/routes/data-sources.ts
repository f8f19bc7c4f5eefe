import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../src/shared/common';
import {
  dataBindingCreateSchema,
  dataBindingSchema,
  dataBindingUpdateSchema,
  dataSourceCreateSchema,
  dataSourceRunSchema,
  dataSourceSchema,
  dataSourceTestResultSchema,
  dataSourceTestSchema,
  dataSourceUpdateSchema,
} from '../../src/shared/data-source';
import {
  createDataBinding,
  createDataSource,
  deleteDataBinding,
  deleteDataSource,
  updateDataBinding,
  updateDataSource,
} from '../actions/data-sources';
import type { ServiceContext } from '../context';
import { testQuery } from '../data-sources/test-query';
import { notFound } from '../domain/errors';
import { resourceRoutes } from '../http/resource-routes';
import { DataBindingRepository } from '../repositories/data-bindings';
import { answerOf, DataSourceRepository } from '../repositories/data-sources';

const idParams = z.object({ id: idSchema });
const TAG = 'data sources';

/**
 * Data sources and bindings (docs/data-sources.md). Reading them takes what reading scripts takes
 * (admins, viewers and full tokens: a source's URL and headers may say more than a screen should
 * know, though its secret is never answered); changing them and running a test query take `write`.
 */
export function dataSourceRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const sources = new DataSourceRepository(ctx.db);
  const bindings = new DataBindingRepository(ctx.db);

  return async (app) => {
    resourceRoutes(app, {
      path: '/data-sources',
      tag: TAG,
      noun: 'data source',
      params: idParams,
      item: dataSourceSchema,
      list: {
        summary: 'Lists the data sources, oldest first, each with its last run and how many flows it feeds',
        permission: 'scripts:read',
        noQuery: true,
        read: async () => (await sources.list()).map(answerOf),
      },
      get: {
        summary:
          'Returns one data source; its secret is never answered (`has_secret` says whether one is set)',
        permission: 'scripts:read',
        noQuery: true,
        read: async (id) => {
          const source = await sources.find(id);
          return source ? answerOf(source) : null;
        },
      },
      create: {
        summary:
          'Adds a data source: a Prometheus server, a PostgreSQL or MySQL/MariaDB database, or a JSON, CSV, RSS/Atom or iCalendar URL',
        permission: 'write',
        body: dataSourceCreateSchema,
        run: (body) => createDataSource(ctx, body),
      },
      update: {
        summary:
          'Changes a data source (not its kind); `secret: null` removes the secret, leaving it out keeps it',
        permission: 'write',
        body: dataSourceUpdateSchema,
        run: (id, body) => updateDataSource(ctx, id, body),
      },
      delete: {
        summary: 'Removes a data source and its bindings; their flows keep their last data',
        permission: 'write',
        run: (id) => deleteDataSource(ctx, id),
      },
    });

    app.post(
      '/data-sources/:id/test',
      {
        config: { permission: 'write' },
        schema: {
          tags: [TAG],
          summary:
            'Runs one query of the source now and answers its result (clipped to 200 rows or items), and, with a mapping and a flow, the metrics it maps to, checked against the flow’s variant; nothing is written',
          params: idParams,
          body: dataSourceTestSchema,
          response: { 200: dataSourceTestResultSchema },
        },
      },
      async (request) => {
        const source = await sources.find(request.params.id);
        if (!source) throw notFound(`data source ${request.params.id}`);
        return testQuery(ctx, source, request.body);
      },
    );

    app.get(
      '/data-sources/:id/runs',
      {
        config: { permission: 'scripts:read' },
        schema: {
          tags: [TAG],
          summary: 'The source’s recent runs, newest first (the last 50)',
          params: idParams,
          response: { 200: z.array(dataSourceRunSchema) },
        },
      },
      async (request) => {
        if (!(await sources.find(request.params.id))) throw notFound(`data source ${request.params.id}`);
        return sources.runs(request.params.id);
      },
    );

    app.get(
      '/data-bindings',
      {
        config: { permission: 'scripts:read' },
        schema: {
          tags: [TAG],
          summary: 'Lists the data bindings, oldest first; `source_id` keeps those of one source',
          querystring: z.strictObject({ source_id: idSchema.optional() }),
          response: { 200: z.array(dataBindingSchema) },
        },
      },
      (request) => bindings.list(request.query.source_id),
    );

    resourceRoutes(app, {
      path: '/data-bindings',
      tag: TAG,
      noun: 'data binding',
      params: idParams,
      item: dataBindingSchema,
      get: {
        summary: 'Returns one data binding with its last run',
        permission: 'scripts:read',
        noQuery: true,
        read: (id) => bindings.find(id),
      },
      create: {
        summary:
          'Feeds a flow from a data source: its query, and a JMESPath expression for each field of the flow’s metrics; one binding a flow',
        permission: 'write',
        body: dataBindingCreateSchema,
        run: (body) => createDataBinding(ctx, body),
      },
      update: {
        summary: 'Changes a binding’s query, range or mapping; it runs again at its source’s next pass',
        permission: 'write',
        body: dataBindingUpdateSchema,
        run: (id, body) => updateDataBinding(ctx, id, body),
      },
      delete: {
        summary: 'Stops feeding the flow from its source; the flow keeps its last data',
        permission: 'write',
        run: (id) => deleteDataBinding(ctx, id),
      },
    });
  };
}
