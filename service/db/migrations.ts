import { sql, type SqlBool } from 'kysely';
import { columnTypes } from './column-types';
import type { Queryable } from './database';
import { accounts } from './migrations/accounts';
import { accountLogins } from './migrations/account-logins';
import { alerts } from './migrations/alerts';
import { alertEvents } from './migrations/alert-events';
import { capFeeds } from './migrations/cap-feeds';
import { dataSources } from './migrations/data-sources';
import { cluster } from './migrations/cluster';
import { commandsAndPlays } from './migrations/commands';
import { media } from './migrations/media';
import { mediaOrganisation } from './migrations/media-organisation';
import { notificationTargets } from './migrations/notification-targets';
import { operators } from './migrations/operators';
import { overrides } from './migrations/overrides';
import { pairings } from './migrations/pairings';
import { pairingSources } from './migrations/pairing-sources';
import { playReports } from './migrations/play-reports';
import { quotas } from './migrations/quotas';
import { schedules } from './migrations/schedules';
import { webContent } from './migrations/web-content';
import { users } from './migrations/users';
import { rolesAndGroups } from './migrations/roles-and-groups';
import { audit } from './migrations/audit';
import { scriptSecrets } from './migrations/script-secrets';
import { singleSignOn } from './migrations/single-sign-on';
import { releases } from './migrations/releases';
import { releaseBytes } from './migrations/release-bytes';
import { syncGroups } from './migrations/sync-groups';

/**
 * Versioned schema migrations for both stores, applied in order, each once, each in its own
 * transaction (migrate.ts). Add a new entry for every change; never edit one that has shipped.
 * Versions 1 and 2 give PostgreSQL the schema the raw SQL of legacy-pglite-schema.ts gave it,
 * so a database that has them is left as it is.
 */
export interface Migration {
  version: number;
  name: string;
  up(tx: Queryable): Promise<void>;
  /**
   * SQLite only: the migration makes tables again (SQLite cannot drop a constraint), so it runs
   * with the foreign keys off, and every row is checked against them before it commits.
   */
  foreignKeysOff?: true;
}

const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`;

const RESOURCE_TYPES = ['default', 'affiliated', 'virtualized'] as const;

async function initial({ kysely, kind }: Queryable): Promise<void> {
  const t = columnTypes(kind);
  const { schema } = kysely;
  await schema
    .createTable('tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('scope', 'text', (c) => c.notNull().check(oneOf('scope', ['full', 'readonly', 'affiliated'])))
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', t.timestamp, t.stamped)
    .addColumn('last_used_at', t.timestamp)
    .execute();

  await schema
    .createTable('channels')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull().check(oneOf('type', RESOURCE_TYPES)))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('tag', 'text', (c) => c.notNull().unique())
    .addColumn('parent_channel_id', 'text', (c) => c.references('channels.id').onDelete('cascade'))
    .addColumn('created_at', t.timestamp, t.stamped)
    .execute();

  await schema
    .createTable('flows')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull().check(oneOf('type', RESOURCE_TYPES)))
    .addColumn('variant', 'text', (c) => c.notNull())
    .addColumn('tag', 'text', (c) => c.notNull().unique())
    .addColumn('errored', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('enabled', 'boolean', (c) => c.notNull())
    .addColumn('channel_id', 'text', (c) => c.references('channels.id').onDelete('set null'))
    .addColumn('source', 'text')
    .addColumn('parameters', t.json)
    .addColumn('data', t.json, (c) => c.notNull().defaultTo(t.jsonDefault('{}')))
    .addColumn('data_updated_at', t.timestamp)
    .addColumn('created_at', t.timestamp, t.stamped)
    .execute();
  await schema.createIndex('flows_channel').on('flows').column('channel_id').execute();

  await schema
    .createTable('boards')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('settings', t.json, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, t.stamped)
    .addColumn('updated_at', t.timestamp, t.stamped)
    .execute();

  await schema
    .createTable('widgets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('board_id', 'text', (c) => c.notNull().references('boards.id').onDelete('cascade'))
    .addColumn('flow_id', 'text', (c) => c.notNull().references('flows.id').onDelete('cascade'))
    .addColumn('variant', 'text', (c) => c.notNull())
    .addColumn('column', 'integer', (c) => c.notNull())
    .addColumn('row', 'integer', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('in_board_index', 'integer', (c) => c.notNull())
    .addColumn('background', 'text', (c) => c.notNull().defaultTo('default'))
    .execute();
  await schema.createIndex('widgets_board').on('widgets').column('board_id').execute();
  await schema.createIndex('widgets_flow').on('widgets').column('flow_id').execute();

  await schema
    .createTable('notifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('channel_id', 'text', (c) => c.notNull().references('channels.id').onDelete('cascade'))
    .addColumn('title', 'text')
    .addColumn('message', 'text')
    .addColumn('icon', 'text')
    .addColumn('duration', 'integer', (c) => c.notNull())
    .addColumn('sound_url', 'text')
    .addColumn('created_at', t.timestamp, t.stamped)
    .execute();
  await schema
    .createIndex('notifications_channel')
    .on('notifications')
    .columns(['channel_id', 'created_at'])
    .execute();

  await schema
    .createTable('playlists')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('items', t.json, (c) => c.notNull().defaultTo(t.jsonDefault('[]')))
    .addColumn('created_at', t.timestamp, t.stamped)
    .addColumn('updated_at', t.timestamp, t.stamped)
    .execute();

  await schema
    .createTable('devices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tag', 'text', (c) => c.notNull().unique())
    .addColumn('playlist_id', 'text', (c) => c.references('playlists.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('online', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('last_seen_date', t.timestamp)
    .addColumn('last_seen_ip', 'text')
    .addColumn('diagnostics', t.json)
    .addColumn('created_at', t.timestamp, t.stamped)
    .execute();

  await schema
    .createTable('events')
    .addColumn('id', t.serialType, t.serial)
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('rooms', t.textArray, (c) => c.notNull())
    .addColumn('payload', t.json, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, t.stamped)
    .execute();
}

async function scripts({ kysely, kind }: Queryable): Promise<void> {
  const t = columnTypes(kind);
  const { schema } = kysely;
  await schema
    .createTable('scripts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('run_interval', 'text', (c) => c.notNull())
    .addColumn('timeout_seconds', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('flow_id', 'text', (c) => c.references('flows.id').onDelete('set null'))
    .addColumn('created_at', t.timestamp, t.stamped)
    .addColumn('updated_at', t.timestamp, t.stamped)
    .execute();
  // A flow is fed by one script at most.
  await schema
    .createIndex('scripts_flow')
    .on('scripts')
    .column('flow_id')
    .unique()
    .where(sql<SqlBool>`flow_id is not null`)
    .execute();

  await schema
    .createTable('script_runs')
    .addColumn('seq', t.serialType, t.serial)
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('script_id', 'text', (c) => c.notNull().references('scripts.id').onDelete('cascade'))
    .addColumn('started_at', t.timestamp, (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) =>
      c.notNull().check(oneOf('outcome', ['ok', 'error', 'timeout', 'invalid'])),
    )
    .addColumn('trigger', 'text', (c) => c.notNull().check(oneOf('trigger', ['schedule', 'manual'])))
    .addColumn('logs', t.json, (c) => c.notNull().defaultTo(t.jsonDefault('[]')))
    .addColumn('error', 'text')
    .execute();
  await schema.createIndex('script_runs_script').on('script_runs').columns(['script_id', 'seq']).execute();
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial', up: initial },
  { version: 2, name: 'scripts', up: scripts },
  { version: 3, name: 'pairings', up: pairings },
  { version: 4, name: 'commands', up: commandsAndPlays },
  { version: 5, name: 'users', up: users },
  { version: 6, name: 'media', up: media },
  { version: 7, name: 'operators', up: operators },
  { version: 8, name: 'schedules', up: schedules },
  { version: 9, name: 'web-content', up: webContent },
  { version: 10, name: 'cluster', up: cluster },
  { version: 11, name: 'accounts', up: accounts, foreignKeysOff: true },
  { version: 12, name: 'quotas', up: quotas },
  { version: 13, name: 'pairing-sources', up: pairingSources },
  { version: 14, name: 'account-logins', up: accountLogins, foreignKeysOff: true },
  { version: 15, name: 'alerts', up: alerts },
  { version: 16, name: 'overrides', up: overrides },
  { version: 17, name: 'play-reports', up: playReports },
  { version: 18, name: 'alert-events', up: alertEvents, foreignKeysOff: true },
  { version: 19, name: 'cap-feeds', up: capFeeds },
  { version: 20, name: 'notification-targets', up: notificationTargets },
  { version: 21, name: 'media-organisation', up: mediaOrganisation },
  { version: 22, name: 'data-sources', up: dataSources },
  { version: 23, name: 'roles-and-groups', up: rolesAndGroups, foreignKeysOff: true },
  { version: 24, name: 'audit', up: audit },
  { version: 25, name: 'script-secrets', up: scriptSecrets },
  { version: 26, name: 'single-sign-on', up: singleSignOn },
  { version: 27, name: 'releases', up: releases },
  { version: 28, name: 'sync-groups', up: syncGroups },
  { version: 29, name: 'release-bytes', up: releaseBytes },
];
