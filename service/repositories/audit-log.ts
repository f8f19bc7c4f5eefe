import type { Selectable } from 'kysely';
import type { AuditEntry } from '../../src/shared/audit';
import type { Queryable, StoreKind } from '../db/database';
import { fromJsonOrNull } from '../db/dialect';
import type { AuditLogTable } from '../db/schema';
import { isoRequired } from './rows';

/** Entries per statement of a list: a few milliseconds of the event loop each. */
const AUDIT_PAGE = 250;
/** Entries deleted per statement of a pruning, so that no one statement holds the store long. */
const PRUNE_BATCH = 5_000;

export interface AuditFilter {
  resource?: string;
  resourceId?: string;
  /** An actor's id, or their name in any case. */
  actor?: string;
  action?: string;
  since?: Date;
  until?: Date;
  /** Entries older than this one (by id). */
  before?: number;
}

/**
 * A recorded row as both stores answer it: SQLite's triggers record its JSON columns as their text
 * (audit/triggers.ts), which is parsed here where it is an object or an array.
 */
function withJsonColumns(row: Record<string, unknown> | null): Record<string, unknown> | null {
  if (row === null) return null;
  const parsed: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    parsed[column] = typeof value === 'string' && /^[[{]/.test(value) ? jsonOrText(value) : value;
  }
  return parsed;
}

function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function fromRow(row: Selectable<AuditLogTable>, kind: StoreKind): AuditEntry {
  const recorded = (json: string | null) => {
    const value = fromJsonOrNull<Record<string, unknown>>(json);
    return kind === 'sqlite' ? withJsonColumns(value) : value;
  };
  return {
    id: Number(row.seq),
    at: isoRequired(row.at),
    actor: { kind: row.actor_kind, id: row.actor_id, name: row.actor_name, address: row.address },
    resource: row.resource,
    resource_id: row.resource_id,
    action: row.action,
    before: recorded(row.before),
    after: recorded(row.after),
  };
}

/** The audit trail (docs/audit.md), read newest first in the current account. */
export class AuditLogRepository {
  constructor(private readonly db: Queryable) {}

  /** The entries `filter` keeps, newest first, at most `limit`, in pages read one after another. */
  async *pages(filter: AuditFilter, limit: number, size = AUDIT_PAGE): AsyncGenerator<AuditEntry[]> {
    let before = filter.before;
    for (let left = limit; left > 0;) {
      const rows = await this.matching({ ...filter, before })
        .orderBy('seq', 'desc')
        .limit(Math.min(size, left))
        .execute();
      if (rows.length === 0) return;
      yield rows.map((row) => fromRow(row, this.db.kind));
      left -= rows.length;
      before = Number(rows.at(-1)?.seq);
      if (rows.length < size) return;
    }
  }

  private matching(filter: AuditFilter) {
    let query = this.db.kysely.selectFrom('audit_log').selectAll();
    if (filter.resource !== undefined) query = query.where('resource', '=', filter.resource);
    if (filter.resourceId !== undefined) query = query.where('resource_id', '=', filter.resourceId);
    if (filter.action !== undefined) query = query.where('action', '=', filter.action);
    if (filter.before !== undefined) query = query.where('seq', '<', filter.before);
    // Both stores compare the ISO text of UTC instants as the instants themselves.
    if (filter.since) query = query.where('at', '>=', filter.since.toISOString());
    if (filter.until) query = query.where('at', '<', filter.until.toISOString());
    const { actor } = filter;
    if (actor !== undefined) {
      query = query.where((eb) =>
        eb.or([eb('actor_id', '=', actor), eb(eb.fn('lower', ['actor_name']), '=', actor.toLowerCase())]),
      );
    }
    return query;
  }

  /** Deletes the entries older than `before`, of every account when run outside one; how many. */
  async prune(before: Date): Promise<number> {
    let deleted = 0;
    for (;;) {
      const oldest = this.db.kysely
        .selectFrom('audit_log')
        .select('seq')
        .where('at', '<', before.toISOString())
        .orderBy('seq')
        .limit(PRUNE_BATCH);
      const result = await this.db.kysely
        .deleteFrom('audit_log')
        .where('seq', 'in', oldest)
        .executeTakeFirst();
      const count = Number(result.numDeletedRows);
      deleted += count;
      if (count < PRUNE_BATCH) return deleted;
    }
  }
}
