import type { ColumnDefinitionBuilder } from 'kysely';
import { DEFAULT_ACCOUNT_ID } from '../../accounts/scope';
import type { Queryable } from '../database';
import { columnTypes } from '../column-types';

/** As migration 11 gave every table before it (accounts/account-plugin.ts fills it). */
const accountColumn = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(DEFAULT_ACCOUNT_ID);

/**
 * Version 26: single sign-on through OpenID Connect (docs/single-sign-on.md). `account_sso`
 * holds an account's provider and how its claims map to roles and screen groups, one row per
 * account; the client secret is kept as it is, since the token request needs it, and is never
 * answered. `sso_flows` holds each sign-in under way between the redirect to the provider and its
 * return, so that whichever node the browser comes back to can finish it: found by the hash of
 * the browser's short-lived cookie, used once, gone after ten minutes. It belongs to no account
 * while it is looked up (the account is in the row), so it is not an account table.
 */
export async function singleSignOn({ kysely, kind }: Queryable): Promise<void> {
  const t = columnTypes(kind);
  await kysely.schema
    .createTable('account_sso')
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('client_secret', 'text')
    .addColumn('scopes', t.json, (c) => c.notNull().defaultTo(t.jsonDefault('[]')))
    .addColumn('role_claim', 'text')
    .addColumn('role_map', t.json, (c) => c.notNull().defaultTo(t.jsonDefault('{}')))
    .addColumn('group_claim', 'text')
    .addColumn('group_map', t.json, (c) => c.notNull().defaultTo(t.jsonDefault('{}')))
    .addColumn('default_role', 'text')
    .addColumn('sso_only', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => accountColumn(c).unique())
    .execute();

  await kysely.schema
    .createTable('sso_flows')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .execute();
  await kysely.schema.createIndex('sso_flows_expiry').on('sso_flows').column('expires_at').execute();
}
