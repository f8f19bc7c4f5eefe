import { z } from 'zod';
import { timestampSchema } from './common';

/** Who made a change (docs/audit.md): a person signed in, a token, or the service itself. */
export const auditActorKindSchema = z.enum(['user', 'token', 'system']);

/**
 * One entry of the audit trail: a change of a row of an audited resource (`create`, `update`,
 * `delete`, with the row before and after, secrets as `***`), or a sign-in, a failed one or a
 * sign-out (`resource: "session"`).
 */
export const auditEntrySchema = z.object({
  /** Grows with every entry: `before` in a query pages back from it. */
  id: z.number().int(),
  at: z.string(),
  actor: z.object({
    kind: auditActorKindSchema,
    id: z.string(),
    /** The login or token name as it was then. */
    name: z.string(),
    /** The client's address, or null. */
    address: z.string().nullable(),
  }),
  /** The resource's kind, as its table is named (`boards`, `users`, `tokens`...) or `session`. */
  resource: z.string(),
  resource_id: z.string().nullable(),
  action: z.string(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const AUDIT_LIST_DEFAULT = 100;
export const AUDIT_LIST_MAX = 10_000;

const filterText = z.string().min(1).max(200);

/** `GET /audit`'s filters: each narrows, all together. */
export const auditQuerySchema = z.object({
  resource: filterText.optional(),
  resource_id: filterText.optional(),
  /** The actor's id, or their login or token name (exactly, in any case). */
  actor: filterText.optional(),
  action: filterText.optional(),
  /** Entries at or after this instant. */
  since: timestampSchema.optional(),
  /** Entries before this instant. */
  until: timestampSchema.optional(),
  /** Entries older than this id: the next page after a page whose last entry had it. */
  before: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').optional(),
  limit: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(AUDIT_LIST_MAX, `must be at most ${AUDIT_LIST_MAX}`)
    .default(AUDIT_LIST_DEFAULT),
  /** csv or json, whatever the Accept header says (a link cannot set headers). */
  format: z.enum(['json', 'csv']).optional(),
});
export type AuditQuery = z.input<typeof auditQuerySchema>;
