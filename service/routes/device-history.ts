import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tagSchema } from '../../src/shared/common';
import {
  DEVICE_HISTORY_LIMIT_DEFAULT,
  DEVICE_HISTORY_LIMIT_MAX,
  deviceHistoryPageSchema,
} from '../../src/shared/device-history';
import { deviceNotFound } from '../actions/commands';
import type { ServiceContext } from '../context';
import { DeviceHistoryRepository } from '../repositories/device-history';
import { DeviceRepository } from '../repositories/devices';

const historyQuery = z.object({
  limit: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(DEVICE_HISTORY_LIMIT_MAX, `must be at most ${DEVICE_HISTORY_LIMIT_MAX}`)
    .default(DEVICE_HISTORY_LIMIT_DEFAULT),
  /** The `next_before` of the page before: entries older than that one. */
  before: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').optional(),
});

/** A screen's status history (docs/api/devices.md). */
export function deviceHistoryRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const history = new DeviceHistoryRepository(ctx.db);
  const devices = new DeviceRepository(ctx.db);
  return async (app) => {
    app.get(
      '/devices/:tag/history',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['devices'],
          summary:
            "The device's status history, newest first: online, offline, what it shows, failures, recoveries; page with before=next_before",
          params: z.object({ tag: tagSchema }),
          querystring: historyQuery,
          response: { 200: deviceHistoryPageSchema },
        },
      },
      async (request) => {
        const { tag } = request.params;
        if (!(await devices.findByTag(tag))) throw deviceNotFound(tag);
        const { limit, before } = request.query;
        // One more than asked tells whether there is a next page.
        const found = await history.page(tag, limit + 1, before);
        const entries = found.slice(0, limit);
        const last = entries.at(-1);
        return { entries, next_before: found.length > limit && last ? last.seq : null };
      },
    );
  };
}
