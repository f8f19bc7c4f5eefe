import type { AlertDestination, AlertDestinationCreate, AlertDestinationKind } from '../../src/shared/alert';
import type { Queryable } from '../db/database';
import { fromJsonOrNull, toJson } from '../db/dialect';
import { newId } from '../ids';
import { isoRequired } from './rows';

/** A destination as the sender needs it: its URL, addresses and secret in full. */
export interface AlertTarget {
  id: string;
  kind: AlertDestinationKind;
  name: string;
  url: string | null;
  to: string[];
  secret: string | null;
}

const COLUMNS = ['id', 'kind', 'name', 'url', 'recipients', 'secret', 'created_at'] as const;

interface DestinationRow {
  id: string;
  kind: AlertDestinationKind;
  name: string;
  url: string | null;
  recipients: string | null;
  secret: string | null;
  created_at: Date | string;
}

/** A Slack or Teams URL is the credential itself: its origin and last four characters are enough to tell one. */
function hint(url: string): string {
  const { origin } = new URL(url);
  return `${origin}/…${url.slice(-4)}`;
}

/** As listed: never the secret, nor the whole of a URL that is a credential. */
function fromRow(row: DestinationRow): AlertDestination {
  const url = row.url ?? undefined;
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    ...(row.kind === 'webhook' && url ? { url } : {}),
    ...((row.kind === 'slack' || row.kind === 'teams') && url ? { url_hint: hint(url) } : {}),
    ...(row.kind === 'email' ? { to: fromJsonOrNull<string[]>(row.recipients) ?? [] } : {}),
    has_secret: row.secret !== null,
    created_at: isoRequired(row.created_at),
  };
}

function targetOf(row: DestinationRow): AlertTarget {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    url: row.url,
    to: fromJsonOrNull<string[]>(row.recipients) ?? [],
    secret: row.secret,
  };
}

/** Where an account's alerts go (migration 15), oldest first. */
export class AlertDestinationRepository {
  constructor(private readonly db: Queryable) {}

  async list(): Promise<AlertDestination[]> {
    const rows = await this.db.kysely
      .selectFrom('alert_destinations')
      .select(COLUMNS)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(fromRow);
  }

  async create(input: AlertDestinationCreate, at: Date): Promise<AlertDestination> {
    const row = await this.db.kysely
      .insertInto('alert_destinations')
      .values({
        id: newId('adst'),
        kind: input.kind,
        name: input.name ?? '',
        url: 'url' in input ? input.url : null,
        recipients: input.kind === 'email' ? toJson(input.to) : null,
        secret: input.kind === 'webhook' ? input.secret : null,
        created_at: at.toISOString(),
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return fromRow(row);
  }

  /** The rules that sent to it no longer do. */
  async delete(id: string): Promise<boolean> {
    const result = await this.db.kysely
      .deleteFrom('alert_destinations')
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** Of `ids`, those that are the current account's. */
  async existing(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.kysely
      .selectFrom('alert_destinations')
      .select('id')
      .where('id', 'in', ids)
      .execute();
    return new Set(rows.map((row) => row.id));
  }

  /** In full, for sending: only the senders read this. */
  async targets(ids: readonly string[]): Promise<Map<string, AlertTarget>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.kysely
      .selectFrom('alert_destinations')
      .select(COLUMNS)
      .where('id', 'in', ids)
      .execute();
    return new Map(rows.map((row) => [row.id, targetOf(row)]));
  }
}
