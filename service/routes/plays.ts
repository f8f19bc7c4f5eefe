import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tagSchema, timestampSchema } from '../../src/shared/common';
import { playSchema, playsReceivedSchema, playsUploadSchema, type Play } from '../../src/shared/play';
import { deviceNotFound } from '../actions/commands';
import { recordPlays } from '../actions/plays';
import type { ServiceContext } from '../context';
import { invalid } from '../domain/errors';
import { answersCsv, csvTable, sendCsv } from '../http/csv';
import { sendPages } from '../http/paged-answer';
import { DeviceRepository } from '../repositories/devices';
import { PlayRepository } from '../repositories/plays';

const tagParams = z.object({ tag: tagSchema });

const PLAYS_LIST_DEFAULT = 10_000;
const PLAYS_LIST_MAX = 50_000;
const DAY_MS = 86_400_000;

/** The range of a list of plays, as `GET /plays` takes it too (routes/play-reports.ts). */
export const rangeQuery = {
  /** Plays that started at or after this instant; default: a day before `to`. */
  from: timestampSchema.optional(),
  /** Plays that started before this instant; default: now. */
  to: timestampSchema.optional(),
};

/** [from, to) of a query: to defaults to now, from to a day before it; from must come first. */
export function rangeOf(query: { from?: string; to?: string }, now: Date): { from: Date; to: Date } {
  const to = query.to ? new Date(query.to) : now;
  const from = query.from ? new Date(query.from) : new Date(to.getTime() - DAY_MS);
  if (from.getTime() >= to.getTime()) {
    throw invalid('from must be before to', [{ path: 'querystring.from', message: 'must be before to' }]);
  }
  return { from, to };
}

export const limitQuery = z.coerce
  .number()
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(PLAYS_LIST_MAX, `must be at most ${PLAYS_LIST_MAX}`)
  .default(PLAYS_LIST_DEFAULT);

/** csv or json whatever the Accept header says (a link in a page cannot set headers). */
export const formatQuery = z.enum(['json', 'csv']).optional();

const listQuery = z.object({ ...rangeQuery, limit: limitQuery, format: formatQuery });

/** The CSV's file name: the device and the days it covers (no colons, which some systems refuse). */
export function playsFilename(tag: string, from: Date, to: Date): string {
  return `plays-${tag}-${from.toISOString().slice(0, 10)}-to-${to.toISOString().slice(0, 10)}.csv`;
}

const CSV_COLUMNS = [
  'id',
  'device_tag',
  'type',
  'board_id',
  'url',
  'channel_id',
  'started_at',
  'ended_at',
  'seconds',
] as const satisfies readonly (keyof Play)[];

/** Excel-safe (service/http/csv.ts): a byte order mark, CRLF, no cell read as a formula. */
export function playsCsv(plays: readonly Play[]): string {
  return csvTable(CSV_COLUMNS, plays);
}

/** Proof of play (docs/api/commands.md). */
export function playRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const plays = new PlayRepository(ctx.db);
  const devices = new DeviceRepository(ctx.db);

  return async (app) => {
    app.post(
      '/devices/:tag/plays',
      {
        config: { permission: 'devices:write', audit: false },
        schema: {
          tags: ['plays'],
          summary: 'The device uploads what it played; a play the service has already (by id) is kept once',
          params: tagParams,
          body: playsUploadSchema,
          response: { 200: playsReceivedSchema },
        },
      },
      async (request) => {
        const { tag } = request.params;
        return recordPlays(ctx, tag, request.body);
      },
    );

    app.get(
      '/devices/:tag/plays',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['plays'],
          summary:
            'Lists what the device played between from and to, oldest first; CSV (a download) with format=csv or accept: text/csv',
          params: tagParams,
          querystring: listQuery,
          // The CSV is a string: named here so that the route's type and description allow it.
          response: { 200: z.union([z.array(playSchema), z.string().describe('text/csv')]) },
        },
      },
      async (request, reply) => {
        const { tag } = request.params;
        const { from, to } = rangeOf(request.query, ctx.clock.now());
        if (!(await devices.findByTag(tag))) throw deviceNotFound(tag);
        const pages = plays.pages(tag, from, to, request.query.limit);
        if (!answersCsv(request, request.query.format)) {
          return sendPages(reply, z.array(playSchema), pages);
        }
        const found: Play[] = [];
        for await (const page of pages) found.push(...page);
        return sendCsv(reply, playsFilename(tag, from, to), playsCsv(found));
      },
    );
  };
}
