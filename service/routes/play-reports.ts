import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema, tagSchema } from '../../src/shared/common';
import {
  namedPlaySchema,
  playTotalSchema,
  REPORT_RANGE_DAYS,
  type NamedPlay,
  type PlayTotal,
} from '../../src/shared/play-report';
import { timeZoneSchema } from '../../src/shared/schedule';
import type { ServiceContext } from '../context';
import { invalid } from '../domain/errors';
import { answersCsv, csvTable, sendCsv } from '../http/csv';
import { sendPages } from '../http/paged-answer';
import { PlayReportRepository, type PlayFilters } from '../repositories/play-reports';
import { formatQuery, limitQuery, rangeOf, rangeQuery } from './plays';

const DAY_MS = 86_400_000;

/** What both reports take: the range (default: the last day) and what to keep of it. */
const filterQuery = {
  ...rangeQuery,
  /** One screen, by tag. */
  device_tag: tagSchema.optional(),
  /** The screens of a group (those in it now). */
  group_id: idSchema.optional(),
  board_id: idSchema.optional(),
  /** A medium's URL (the library's are `/media/<id>/content`) or a web page's, exactly. */
  url: z.string().min(1, 'must not be empty').max(2048, 'must be at most 2048 characters').optional(),
};

const playsQuery = z.object({ ...filterQuery, limit: limitQuery, format: formatQuery });

const totalsQuery = z.object({
  ...filterQuery,
  /** What the totals are per, besides the item: the day (the one choice so far). */
  by: z.enum(['day']).default('day'),
  /** The zone whose days the totals are of; default UTC. */
  time_zone: timeZoneSchema.default('UTC'),
  format: formatQuery,
});

const PLAY_COLUMNS = [
  'id',
  'device_tag',
  'device_name',
  'group_id',
  'group_name',
  'type',
  'board_id',
  'board_name',
  'url',
  'media_id',
  'media_name',
  'channel_id',
  'started_at',
  'ended_at',
  'seconds',
] as const satisfies readonly (keyof NamedPlay)[];

const TOTAL_COLUMNS = [
  'day',
  'type',
  'item_id',
  'url',
  'name',
  'plays',
  'seconds',
  'screens',
] as const satisfies readonly (keyof PlayTotal)[];

/** A download's name: what it holds and the days it covers (no colons, which some systems refuse). */
function filename(what: string, { from, to }: PlayFilters): string {
  return `${what}-${from.toISOString().slice(0, 10)}-to-${to.toISOString().slice(0, 10)}.csv`;
}

function filtersOf(query: z.infer<typeof playsQuery> | z.infer<typeof totalsQuery>, now: Date): PlayFilters {
  return {
    ...rangeOf(query, now),
    deviceTag: query.device_tag,
    groupId: query.group_id,
    boardId: query.board_id,
    url: query.url,
  };
}

/** Proof of play across the account's screens, with names, and its totals (docs/api/commands.md). */
export function playReportRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const reports = new PlayReportRepository(ctx.db);

  return async (app) => {
    app.get(
      '/plays',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['plays'],
          summary:
            "Lists the plays of the account's screens between from and to, oldest first, with the names of the screen, group, board and medium; CSV with format=csv or accept: text/csv",
          querystring: playsQuery,
          // The CSV is a string: named here so that the route's type and description allow it.
          response: { 200: z.union([z.array(namedPlaySchema), z.string().describe('text/csv')]) },
        },
      },
      async (request, reply) => {
        const filters = filtersOf(request.query, ctx.clock.now());
        const pages = reports.pages(filters, request.query.limit);
        if (!answersCsv(request, request.query.format)) {
          return sendPages(reply, z.array(namedPlaySchema), pages);
        }
        const found: NamedPlay[] = [];
        for await (const page of pages) found.push(...page);
        return sendCsv(reply, filename('plays', filters), csvTable(PLAY_COLUMNS, found));
      },
    );

    app.get(
      '/plays/totals',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['plays'],
          summary:
            'Totals of the plays per item (board, medium, web page) per day: plays, seconds and screens, by day then name; CSV with format=csv or accept: text/csv',
          querystring: totalsQuery,
          response: { 200: z.union([z.array(playTotalSchema), z.string().describe('text/csv')]) },
        },
      },
      async (request, reply) => {
        const filters = filtersOf(request.query, ctx.clock.now());
        if (filters.to.getTime() - filters.from.getTime() > REPORT_RANGE_DAYS * DAY_MS) {
          throw invalid(`the range must be at most ${REPORT_RANGE_DAYS} days`, [
            { path: 'querystring.from', message: `must be at most ${REPORT_RANGE_DAYS} days before to` },
          ]);
        }
        const totals = await reports.totals(filters, request.query.time_zone);
        if (!answersCsv(request, request.query.format)) {
          return reply.type('application/json; charset=utf-8').send(totals);
        }
        return sendCsv(reply, filename('play-totals', filters), csvTable(TOTAL_COLUMNS, totals));
      },
    );
  };
}
