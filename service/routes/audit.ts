import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditEntrySchema, auditQuerySchema, type AuditEntry } from '../../src/shared/audit';
import type { ServiceContext } from '../context';
import { invalid } from '../domain/errors';
import { answersCsv, csvTable, sendCsv } from '../http/csv';
import { sendPages } from '../http/paged-answer';
import { AuditLogRepository, type AuditFilter } from '../repositories/audit-log';

const CSV_COLUMNS = [
  'id',
  'at',
  'actor_kind',
  'actor_id',
  'actor_name',
  'address',
  'resource',
  'resource_id',
  'action',
  'before',
  'after',
] as const;

type CsvRow = Record<(typeof CSV_COLUMNS)[number], string | number | null>;

const csvRow = (entry: AuditEntry): CsvRow => ({
  id: entry.id,
  at: entry.at,
  actor_kind: entry.actor.kind,
  actor_id: entry.actor.id,
  actor_name: entry.actor.name,
  address: entry.actor.address,
  resource: entry.resource,
  resource_id: entry.resource_id,
  action: entry.action,
  before: entry.before && JSON.stringify(entry.before),
  after: entry.after && JSON.stringify(entry.after),
});

type AuditQuery = z.output<typeof auditQuerySchema>;

function filterOf(query: AuditQuery): AuditFilter {
  const since = query.since === undefined ? undefined : new Date(query.since);
  const until = query.until === undefined ? undefined : new Date(query.until);
  if (since && until && since.getTime() >= until.getTime()) {
    throw invalid('since must be before until', [
      { path: 'querystring.since', message: 'must be before until' },
    ]);
  }
  return {
    resource: query.resource,
    resourceId: query.resource_id,
    actor: query.actor,
    action: query.action,
    since,
    until,
    before: query.before,
  };
}

const SUMMARY =
  'The audit trail, newest first: who changed what, from where, before and after (docs/audit.md)';

/** The audit trail (docs/audit.md): an admin's or a full token's to read. */
export function auditRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const log = new AuditLogRepository(ctx.db);

  async function answer(reply: FastifyReply, query: AuditQuery, csv: boolean) {
    const pages = log.pages(filterOf(query), query.limit);
    const day = ctx.clock.now().toISOString().slice(0, 10);
    if (!csv) {
      // Asked for by name (the console's export): a download, as the CSV is.
      if (query.format === 'json')
        reply.header('content-disposition', `attachment; filename="audit-${day}.json"`);
      return sendPages(reply, z.array(auditEntrySchema), pages);
    }
    const rows: CsvRow[] = [];
    for await (const page of pages) rows.push(...page.map(csvRow));
    return sendCsv(reply, `audit-${day}.csv`, csvTable(CSV_COLUMNS, rows));
  }

  return async (app) => {
    app.get(
      '/audit',
      {
        config: { permission: 'audit' },
        schema: {
          tags: ['audit'],
          summary: `${SUMMARY}; CSV (a download) with format=csv or accept: text/csv`,
          querystring: auditQuerySchema,
          response: { 200: z.union([z.array(auditEntrySchema), z.string().describe('text/csv')]) },
        },
      },
      (request, reply) => answer(reply, request.query, answersCsv(request, request.query.format)),
    );

    app.get(
      '/audit.csv',
      {
        config: { permission: 'audit' },
        schema: {
          tags: ['audit'],
          summary: `${SUMMARY}, as CSV (Excel-safe); the filters of GET /audit`,
          querystring: auditQuerySchema.omit({ format: true }),
          response: { 200: z.string().describe('text/csv') },
        },
      },
      (request, reply) => answer(reply, request.query, true),
    );
  };
}
