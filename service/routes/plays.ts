import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tagSchema, timestampSchema } from '../../src/shared/common';
import { playSchema, playsReceivedSchema, playsUploadSchema, type Play } from '../../src/shared/play';
import { deviceNotFound } from '../actions/commands';
import { recordPlays } from '../actions/plays';
import type { ServiceContext } from '../context';
import { invalid } from '../domain/errors';
import { sendPages } from '../http/paged-answer';
import { DeviceRepository } from '../repositories/devices';
import { PlayRepository } from '../repositories/plays';

const tagParams = z.object({ tag: tagSchema });

const PLAYS_LIST_DEFAULT = 10_000;
const PLAYS_LIST_MAX = 50_000;
const DAY_MS = 86_400_000;

const listQuery = z.object({
  /** Plays that started at or after this instant; default: a day before `to`. */
  from: timestampSchema.optional(),
  /** Plays that started before this instant; default: now. */
  to: timestampSchema.optional(),
  limit: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(PLAYS_LIST_MAX, `must be at most ${PLAYS_LIST_MAX}`)
    .default(PLAYS_LIST_DEFAULT),
  /** csv or json whatever the Accept header says (a link in a page cannot set headers). */
  format: z.enum(['json', 'csv']).optional(),
});

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

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
function csvField(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function playsCsv(plays: readonly Play[]): string {
  const lines = [
    CSV_COLUMNS.join(','),
    ...plays.map((play) => CSV_COLUMNS.map((c) => csvField(play[c])).join(',')),
  ];
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * What the Accept header says of `type`: its q, and how closely a range names it (2 exactly, 1
 * by its major type, 0 by the range of any type, -1 not at all), the closest range deciding.
 */
function weight(accept: string, type: string): { q: number; named: number } {
  const [major] = type.split('/');
  let found = { q: 0, named: -1 };
  for (const range of accept.split(',')) {
    const [media = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    const named = media === type ? 2 : media === `${major}/*` ? 1 : media === '*/*' ? 0 : -1;
    if (named < 0 || named < found.named) continue;
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const value = q === undefined ? 1 : Number(q.slice(2));
    found = { q: Number.isFinite(value) ? value : 0, named };
  }
  return found;
}

/**
 * CSV when the client names it (`text/csv`, or `text/` with a star) and wants it at least as
 * much as JSON, unless it names JSON just as much; any type, or no Accept header, gets JSON.
 */
export function wantsCsv(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  if (!accept) return false;
  const csv = weight(accept, 'text/csv');
  const json = weight(accept, 'application/json');
  if (csv.named < 1 || csv.q <= 0) return false;
  return csv.q > json.q || (csv.q === json.q && json.named < 2);
}

/** Proof of play (docs/api/commands.md). */
export function playRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const plays = new PlayRepository(ctx.db);
  const devices = new DeviceRepository(ctx.db);

  return async (app) => {
    app.post(
      '/devices/:tag/plays',
      {
        config: { permission: 'devices:write' },
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
        const to = request.query.to ? new Date(request.query.to) : ctx.clock.now();
        const from = request.query.from ? new Date(request.query.from) : new Date(to.getTime() - DAY_MS);
        if (from.getTime() >= to.getTime()) {
          throw invalid('from must be before to', [
            { path: 'querystring.from', message: 'must be before to' },
          ]);
        }
        if (!(await devices.findByTag(tag))) throw deviceNotFound(tag);
        const pages = plays.pages(tag, from, to, request.query.limit);
        const { format } = request.query;
        if (format === 'json' || (format === undefined && !wantsCsv(request))) {
          return sendPages(reply, z.array(playSchema), pages);
        }
        const found: Play[] = [];
        for await (const page of pages) found.push(...page);
        // A string of a type other than JSON is sent as it is, past the route's JSON serializer.
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${playsFilename(tag, from, to)}"`)
          .send(playsCsv(found));
      },
    );
  };
}
