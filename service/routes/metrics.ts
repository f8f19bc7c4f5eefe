import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tagSchema } from '../../src/shared/common';
import { flowSchema } from '../../src/shared/flow';
import { toFieldIssues } from '../../src/shared/issues';
import { metricsDataSchema, type MetricsData } from '../../src/shared/metrics';
import { setFlowErrored } from '../actions/flows';
import { writeManyMetrics, writeMetrics } from '../actions/write-metrics';
import type { ServiceContext } from '../context';
import { invalid, notFound } from '../domain/errors';
import { metricsCheck, prefixed } from '../domain/metrics-check';
import { visibilityOf, type Visibility } from '../http/device-scope';
import { FlowRepository, type MetricsWrite, type MetricsWriteResult } from '../repositories/flows';

const tagParams = z.object({ tag: tagSchema });

const issueSchema = z.object({ path: z.string(), message: z.string() });

const batchBody = z.strictObject({
  /** Checked flow by flow below, so that one bad entry does not refuse the others. */
  data: z.record(z.string(), z.unknown(), { error: 'must be an object of flow tags' }),
});

const batchAnswer = z.object({
  updated: z.array(z.string()),
  skipped: z.array(z.string()),
  errors: z.array(z.object({ tag: z.string(), details: z.array(issueSchema) })),
});
type BatchAnswer = z.infer<typeof batchAnswer>;

/**
 * `POST /data` and `PATCH /data`, the older clients' batches: `{"data": {...}}` as /metrics takes
 * it, or the bare map of tags (the Node client's). A body whose only key is `data`, an object, is
 * the first.
 */
const legacyBatchBody = z.record(z.string(), z.unknown(), { error: 'must be an object of flow tags' });

function tagsOfLegacyBatch(body: Record<string, unknown>): { entries: Record<string, unknown>; at: string } {
  const { data } = body;
  const wrapped =
    Object.keys(body).length === 1 && typeof data === 'object' && data !== null && !Array.isArray(data);
  return wrapped
    ? { entries: data as Record<string, unknown>, at: 'body.data' }
    : { entries: body, at: 'body' };
}

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

/** PATCH semantics: top-level keys overwrite, a key set to null is removed. */
function mergeOf(patch: MetricsData): MetricsWrite {
  const set: MetricsData = {};
  const remove: string[] = [];
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) remove.push(key);
    else set[key] = value;
  }
  return { kind: 'merge', set, remove };
}

const writeOf = (kind: 'replace' | 'merge', data: MetricsData): MetricsWrite =>
  kind === 'replace' ? { kind, data } : mergeOf(data);

/** The answer of a legacy single-flow write that succeeded: a batch of one, as older clients read it. */
const batchOfOne = (tag: string): BatchAnswer => ({ updated: [tag], skipped: [], errors: [] });

export function metricRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const flows = new FlowRepository(ctx.db);

  const write = (tag: string, change: MetricsWrite, prefix: string): Promise<MetricsWriteResult> =>
    writeMetrics(ctx, tag, change, metricsCheck(ctx.config, prefix));

  const writeOne = async (tag: string, change: MetricsWrite): Promise<MetricsData> => {
    const result = await write(tag, change, 'body');
    if (result.status === 'missing') throw notFound(`flow ${tag}`);
    if (result.status === 'invalid') {
      throw invalid(`the data does not fit a flow of variant "${result.variant}"`, result.details);
    }
    return result.data;
  };

  /**
   * A batch answers flow by flow (docs/api/metrics.md): refused and unknown tags are listed and
   * the others written. The writes go in one transaction, so a failure of the store (a 500)
   * leaves every flow as it was rather than some written.
   */
  const writeMany = async (
    entries: Record<string, unknown>,
    kind: 'replace' | 'merge',
    visible: Visibility,
    at = 'body.data',
  ) => {
    const checked = Object.entries(entries).map(([tag, value]) => {
      const prefix = `${at}.${tag}`;
      // A key that is no tag names no flow, and one with a NUL in it would fail in the store.
      const named = tagSchema.safeParse(tag);
      if (!named.success) return { tag, issues: prefixed(toFieldIssues(named.error), prefix) };
      // A flow a device-bound token does not show is, for it, one that does not exist.
      if (!visible.flowTag(tag)) return { tag, hidden: true };
      const shape = metricsDataSchema.safeParse(value);
      return shape.success
        ? { tag, write: { tag, change: writeOf(kind, shape.data), check: metricsCheck(ctx.config, prefix) } }
        : { tag, issues: prefixed(toFieldIssues(shape.error), prefix) };
    });
    const written = await writeManyMetrics(
      ctx,
      checked.flatMap((entry) => (entry.write ? [entry.write] : [])),
    );
    const results = written.values();
    const answer: BatchAnswer = { updated: [], skipped: [], errors: [] };
    for (const { tag, issues, hidden } of checked) {
      if (issues) {
        answer.errors.push({ tag, details: issues });
        continue;
      }
      if (hidden) {
        answer.skipped.push(tag);
        continue;
      }
      const result = results.next().value as MetricsWriteResult;
      if (result.status === 'updated') answer.updated.push(tag);
      else if (result.status === 'missing') answer.skipped.push(tag);
      else answer.errors.push({ tag, details: result.details });
    }
    return answer;
  };

  /** A flow a device-bound token does not show is answered 404, as an unknown one. */
  const checkFlow = async (request: FastifyRequest, tag: string) => {
    if (!(await visibilityOf(ctx.db, request)).flowTag(tag)) throw notFound(`flow ${tag}`);
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
          await checkFlow(request, request.params.tag);
          const data = await flows.readData(request.params.tag);
          if (!data) throw notFound(`flow ${request.params.tag}`);
          return data;
        },
      );

      app.put(
        url,
        {
          config: { permission: 'metrics:write' },
          schema: {
            tags,
            deprecated: legacy,
            summary: legacy
              ? "Replaces the flow's metrics, checked against its variant; answers as a batch of one (the Ruby gem reads `updated`)"
              : "Replaces the flow's metrics, checked against its variant",
            params: tagParams,
            body: metricsDataSchema,
            response: { 200: legacy ? batchAnswer : metricsDataSchema },
          },
        },
        async (request) => {
          await checkFlow(request, request.params.tag);
          const data = await writeOne(request.params.tag, writeOf('replace', request.body));
          return legacy ? batchOfOne(request.params.tag) : data;
        },
      );

      app.patch(
        url,
        {
          config: { permission: 'metrics:write' },
          schema: {
            tags,
            deprecated: legacy,
            summary: legacy
              ? 'Merges top-level keys into the metrics (null removes a key); the result is checked; answers as a batch of one'
              : 'Merges top-level keys into the metrics (null removes a key); the result is checked',
            params: tagParams,
            body: metricsDataSchema,
            response: { 200: legacy ? batchAnswer : metricsDataSchema },
          },
        },
        async (request) => {
          await checkFlow(request, request.params.tag);
          const data = await writeOne(request.params.tag, writeOf('merge', request.body));
          return legacy ? batchOfOne(request.params.tag) : data;
        },
      );
    }

    app.post(
      '/metrics',
      {
        config: { permission: 'metrics:write' },
        schema: {
          tags: ['metrics'],
          summary: 'Replaces the metrics of many flows at once: `{"data": {"<tag>": {...}}}`',
          body: batchBody,
          response: { 200: batchAnswer },
        },
      },
      async (request) => writeMany(request.body.data, 'replace', await visibilityOf(ctx.db, request)),
    );

    app.patch(
      '/metrics',
      {
        config: { permission: 'metrics:write' },
        schema: {
          tags: ['metrics'],
          summary: 'Merges into the metrics of many flows at once',
          body: batchBody,
          response: { 200: batchAnswer },
        },
      },
      async (request) => writeMany(request.body.data, 'merge', await visibilityOf(ctx.db, request)),
    );

    // The older clients' batches (telemetryd, the Ruby gem's flow_update_batch, the Node client).
    for (const [method, kind] of [
      ['POST', 'replace'],
      ['PATCH', 'merge'],
    ] as const) {
      app.route({
        method,
        url: '/data',
        config: { permission: 'metrics:write' },
        schema: {
          tags: ['metrics'],
          deprecated: true,
          summary: `As ${method} /metrics, for older clients: \`{"data": {"<tag>": {...}}}\` or the bare map of tags`,
          body: legacyBatchBody,
          response: { 200: batchAnswer },
        },
        handler: async (request) => {
          const { entries, at } = tagsOfLegacyBatch(request.body as Record<string, unknown>);
          return writeMany(entries, kind, await visibilityOf(ctx.db, request), at);
        },
      });
    }

    app.post(
      '/flows/:tag/error',
      {
        config: { permission: 'metrics:write' },
        schema: {
          tags: ['metrics'],
          summary: 'Marks the flow errored (`{"errored": false}` clears it)',
          params: tagParams,
          body: errorBody,
          response: { 200: flowSchema },
        },
      },
      async (request) => {
        await checkFlow(request, request.params.tag);
        const { errored = true, message, error, output } = request.body ?? {};
        const why = [message, error, output].filter(Boolean).join(' : ');
        if (why) request.log.info({ flow: request.params.tag, why }, 'a client marked its flow errored');
        const flow = await setFlowErrored(ctx, request.params.tag, errored);
        if (!flow) throw notFound(`flow ${request.params.tag}`);
        return flow;
      },
    );
  };
}
