import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tagSchema } from '../../src/shared/common';
import { textSchema } from '../../src/shared/limits';
import { metricsDataSchema } from '../../src/shared/metrics';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';
import { noQuery } from '../http/strict-requests';
import { ChannelRepository } from '../repositories/channels';
import { FlowRepository } from '../repositories/flows';
import { batchAnswer, batchBody, legacyBatchBody, tagsOfLegacyBatch, writeBatch } from './metric-batches';

/** A channel by id or by tag, as `POST /channels/:channel_id/notifications` names it. */
const channelParams = z.object({ channel_id: textSchema.min(1).max(100) });

/**
 * A channel's batches, as the original product's clients send them (docs/compatibility.md): the
 * Go library's and agent's `/channels/{tag}/metrics`, the Ruby gem's and the Node client's
 * `/channels/{tag}/data`. They write as `/metrics` and `/data` do, to the channel's flows only: a
 * tag of another channel's flow is skipped, as an unknown one is.
 */
export function channelMetricRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const channels = new ChannelRepository(ctx.db);
  const flows = new FlowRepository(ctx.db);

  /**
   * The channel's flows' tags, read before the batch: a flow moved to another channel while the
   * batch is under way may still be written, as it would had the batch come a moment earlier.
   */
  const channelOf = async (idOrTag: string) => {
    const channel = await channels.findByIdOrTag(idOrTag);
    if (!channel) throw notFound(`channel ${idOrTag}`);
    const tags = new Set(
      (await flows.list()).filter((flow) => flow.channel_id === channel.id).map((flow) => flow.tag),
    );
    return (tag: string) => tags.has(tag);
  };

  const write = async (
    idOrTag: string,
    entries: Record<string, unknown>,
    kind: 'replace' | 'merge',
    at: (tag: string) => string,
  ) => {
    return writeBatch(ctx, entries, kind, { at, among: await channelOf(idOrTag) });
  };

  return async (app) => {
    for (const [method, kind] of [
      ['POST', 'replace'],
      ['PATCH', 'merge'],
    ] as const) {
      app.route({
        method,
        url: '/channels/:channel_id/metrics',
        config: { permission: 'metrics:write', audit: false },
        schema: {
          tags: ['metrics'],
          summary: `As ${method} /metrics, to the flows of the channel named by id or by tag; other tags are skipped`,
          params: channelParams,
          querystring: noQuery,
          body: batchBody,
          response: { 200: batchAnswer },
        },
        handler: (request) =>
          write(request.params.channel_id, request.body.data, kind, (tag) => `body.data.${tag}`),
      });
    }

    app.post(
      '/channels/:channel_id/data',
      {
        config: { permission: 'metrics:write', audit: false },
        schema: {
          tags: ['metrics'],
          deprecated: true,
          summary:
            'As POST /data, to the flows of the channel named by id or by tag (older clients); other tags are skipped',
          params: channelParams,
          querystring: noQuery,
          body: legacyBatchBody,
          response: { 200: batchAnswer },
        },
      },
      async (request) => {
        const { entries, at } = tagsOfLegacyBatch(request.body);
        return write(request.params.channel_id, entries, 'replace', (tag) => `${at}.${tag}`);
      },
    );

    app.post(
      '/channels/:channel_id/flows/:flow_tag/data',
      {
        config: { permission: 'metrics:write', audit: false },
        schema: {
          tags: ['metrics'],
          deprecated: true,
          summary:
            "Replaces one flow's metrics, a flow of the channel named by id or by tag; answers as a batch of one (older clients)",
          params: channelParams.extend({ flow_tag: tagSchema }),
          querystring: noQuery,
          body: metricsDataSchema,
          response: { 200: batchAnswer },
        },
      },
      async (request) => {
        const { channel_id: channel, flow_tag: tag } = request.params;
        return write(channel, { [tag]: request.body }, 'replace', () => 'body');
      },
    );
  };
}
