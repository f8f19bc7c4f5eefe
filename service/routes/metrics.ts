import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tagSchema } from '../../src/shared/common';
import { flowSchema } from '../../src/shared/flow';
import { metricsDataSchema, type MetricsData } from '../../src/shared/metrics';
import { setFlowErrored } from '../actions/flows';
import { writeMetrics } from '../actions/write-metrics';
import type { ServiceContext } from '../context';
import { invalid, notFound } from '../domain/errors';
import { metricsCheck } from '../domain/metrics-check';
import { noQuery } from '../http/strict-requests';
import type { MetricsWrite } from '../domain/metric-writes';
import { FlowRepository } from '../repositories/flows';
import {
  batchAnswer,
  batchBody,
  batchOfOne,
  legacyBatchBody,
  tagsOfLegacyBatch,
  writeBatch,
  writeOf,
} from './metric-batches';

const tagParams = z.object({ tag: tagSchema });

const inData = { at: (tag: string) => `body.data.${tag}` };

/**
 * A POST without a body means `errored: true`. The original's agent says why in `message` (its
 * earliest release in `error` and `output`): taken, and written to the service's log, as flows
 * keep no message.
 */
const errorBody = z
  .strictObject({
    errored: z.boolean().default(true),
    message: z.string().max(100_000).optional(),
    error: z.string().max(100_000).optional(),
    output: z.string().max(100_000).optional(),
  })
  .nullish();

export function metricRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const flows = new FlowRepository(ctx.db);

  /**
   * A write to the flow `key` names: its tag, or else its id (the original's Go library writes to
   * /flows/{embed_id}/metrics, and our embed id is the id). A flow a device-bound token does not
   * show is not found, as an unknown one (visibility/scope.ts).
   */
  const writeOne = async (key: string, change: MetricsWrite): Promise<MetricsData> => {
    const result = await writeMetrics(ctx, {
      key,
      orId: true,
      change,
      check: metricsCheck(ctx.config, 'body'),
    });
    if (result.status === 'missing') throw notFound(`flow ${key}`);
    if (result.status === 'invalid') {
      throw invalid(`the data does not fit a flow of variant "${result.variant}"`, result.details);
    }
    return result.data;
  };

  /**
   * The tag of the flow `key` names: its tag, or else its id (the original's Go library writes to
   * /flows/{embed_id}/metrics, and our embed id is the id). A flow a device-bound token does not
   * show is not found, as an unknown one (visibility/scope.ts).
   */
  const flowTagOf = async (key: string): Promise<string> => {
    const flow = await flows.find(key, 'tag');
    if (!flow) throw notFound(`flow ${key}`);
    return flow.tag;
  };

  return async (app) => {
    // `/flows/:tag/data` is the path older clients used; same routes, kept for them.
    for (const [path, legacy] of [
      ['metrics', false],
      ['data', true],
    ] as const) {
      const url = `/flows/:tag/${path}`;
      const tags = ['metrics'];
      app.get(
        url,
        {
          config: { permission: 'read' },
          schema: {
            tags,
            deprecated: legacy,
            summary: "Returns the flow's metrics, `{}` when it has none yet",
            params: tagParams,
            response: { 200: metricsDataSchema },
          },
        },
        async (request) => {
          const tag = await flowTagOf(request.params.tag);
          const data = await flows.readData(tag);
          if (!data) throw notFound(`flow ${request.params.tag}`);
          return data;
        },
      );

      for (const [method, kind, summary] of [
        ['PUT', 'replace', "Replaces the flow's metrics, checked against its variant"],
        [
          'PATCH',
          'merge',
          'Merges top-level keys into the metrics (null removes a key); the result is checked',
        ],
      ] as const) {
        app.route({
          method,
          url,
          config: { permission: 'metrics:write', audit: false },
          schema: {
            tags,
            deprecated: legacy,
            // The Ruby gem reads `updated` from the legacy path's answer.
            summary: legacy ? `${summary}; answers as a batch of one` : summary,
            params: tagParams,
            body: metricsDataSchema,
            response: { 200: legacy ? batchAnswer : metricsDataSchema },
          },
          handler: async (request) => {
            const data = await writeOne(request.params.tag, writeOf(kind, request.body));
            return legacy ? batchOfOne(request.params.tag) : data;
          },
        });
      }

      // The Ruby gem's delete_flow_data: the flow stays, its data is gone (`{}`, "no data").
      app.delete(
        url,
        {
          config: { permission: 'metrics:write', audit: false },
          schema: {
            tags,
            deprecated: legacy,
            summary: "Clears the flow's metrics (they become `{}`, no data); the flow stays",
            params: tagParams,
            response: { 204: z.null() },
          },
        },
        async (request, reply) => {
          await writeOne(request.params.tag, writeOf('replace', {}));
          return reply.status(204).send(null);
        },
      );
    }

    app.post(
      '/metrics',
      {
        config: { permission: 'metrics:write', audit: false },
        schema: {
          tags: ['metrics'],
          summary: 'Replaces the metrics of many flows at once: `{"data": {"<tag>": {...}}}`',
          querystring: noQuery,
          body: batchBody,
          response: { 200: batchAnswer },
        },
      },
      async (request) => writeBatch(ctx, request.body.data, 'replace', inData),
    );

    app.patch(
      '/metrics',
      {
        config: { permission: 'metrics:write', audit: false },
        schema: {
          tags: ['metrics'],
          summary: 'Merges into the metrics of many flows at once',
          querystring: noQuery,
          body: batchBody,
          response: { 200: batchAnswer },
        },
      },
      async (request) => writeBatch(ctx, request.body.data, 'merge', inData),
    );

    // The older clients' batches (telemetryd, the Ruby gem's flow_update_batch, the Node client;
    // the PHP client posts to /v1/data).
    for (const [method, kind, url] of [
      ['POST', 'replace', '/data'],
      ['PATCH', 'merge', '/data'],
      ['POST', 'replace', '/v1/data'],
      ['PATCH', 'merge', '/v1/data'],
    ] as const) {
      app.route({
        method,
        url,
        config: { permission: 'metrics:write', audit: false },
        schema: {
          tags: ['metrics'],
          deprecated: true,
          summary: `As ${method} /metrics, for older clients: \`{"data": {"<tag>": {...}}}\` or the bare map of tags`,
          querystring: noQuery,
          body: legacyBatchBody,
          response: { 200: batchAnswer },
        },
        handler: async (request) => {
          const { entries, at } = tagsOfLegacyBatch(request.body as Record<string, unknown>);
          return writeBatch(ctx, entries, kind, {
            at: (tag) => `${at}.${tag}`,
          });
        },
      });
    }

    app.post(
      '/flows/:tag/error',
      {
        config: { permission: 'metrics:write', audit: false },
        schema: {
          tags: ['metrics'],
          summary: 'Marks the flow errored (`{"errored": false}` clears it)',
          params: tagParams,
          body: errorBody,
          response: { 200: flowSchema },
        },
      },
      async (request) => {
        const { errored = true, message, error, output } = request.body ?? {};
        const why = [message, error, output].filter(Boolean).join(' : ');
        if (why) request.log.info({ flow: request.params.tag, why }, 'a client marked its flow errored');
        // Looked up first: a flow a device-bound token does not show is not found for it.
        const shown = await flows.getByTag(request.params.tag);
        const flow = shown && (await setFlowErrored(ctx, request.params.tag, errored));
        if (!flow) throw notFound(`flow ${request.params.tag}`);
        return flow;
      },
    );
  };
}
