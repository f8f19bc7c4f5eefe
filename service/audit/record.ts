import { accountOrDefault } from '../accounts/scope';
import type { Queryable } from '../db/database';
import type { Actor } from './actor';

/** An entry the service records itself, for what no audited table's change shows (a sign-in). */
export interface AuditEntry {
  /** Who: for a sign-in, the user signing in (or the login typed, when it failed). */
  actor: Actor;
  /** The account whose trail holds the entry; the current account (accounts/scope.ts) when left out. */
  account?: string;
  /** What kind of thing: a table's name for changes, `session` for sign-ins and sign-outs. */
  resource: string;
  resourceId: string | null;
  /** `sign-in`, `sign-in-failed`, `sign-out`, or any verb of one word or a few joined by `-`. */
  action: string;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  at: Date;
}

/**
 * Records `entry` in the audit trail (docs/audit.md), in `db`'s transaction when it is one.
 * Changes of the audited tables need no call: the store's triggers record them (triggers.ts).
 * Secrets are the caller's to leave out of `before` and `after`.
 */
export async function recordAudit(db: Queryable, entry: AuditEntry): Promise<void> {
  const json = (value: Record<string, unknown> | null | undefined) =>
    value === null || value === undefined ? null : JSON.stringify(value);
  await db.kysely
    .insertInto('audit_log')
    .values({
      at: entry.at.toISOString(),
      actor_kind: entry.actor.kind,
      actor_id: entry.actor.id,
      actor_name: entry.actor.name,
      address: entry.actor.address,
      resource: entry.resource,
      resource_id: entry.resourceId,
      action: entry.action,
      before: json(entry.before),
      after: json(entry.after),
      account_id: entry.account ?? accountOrDefault(),
    })
    .execute();
}
