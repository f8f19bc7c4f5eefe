/**
 * The schema of versions 1 ('initial') and 2 ('scripts') as the PGlite store and PostgreSQL ran
 * them, as raw PostgreSQL SQL, kept verbatim for the importer of PGlite data folders (a folder of
 * an older version holds its store in `<data>/pgdata`). The migrations themselves are in
 * migrations.ts, written with Kysely's schema builder for both stores; they give PostgreSQL this
 * same schema (migrate.test.ts compares the two).
 */
export const LEGACY_PGLITE_SCHEMA: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'initial',
    sql: `
      create table tokens (
        id text primary key,
        scope text not null check (scope in ('full', 'readonly', 'affiliated')),
        name text not null default '',
        secret_hash text not null unique,
        created_at timestamptz not null default now(),
        last_used_at timestamptz
      );

      create table channels (
        id text primary key,
        type text not null check (type in ('default', 'affiliated', 'virtualized')),
        name text not null,
        tag text not null unique,
        parent_channel_id text references channels (id) on delete cascade,
        created_at timestamptz not null default now()
      );

      create table flows (
        id text primary key,
        type text not null check (type in ('default', 'affiliated', 'virtualized')),
        variant text not null,
        tag text not null unique,
        errored boolean not null default false,
        enabled boolean not null,
        channel_id text references channels (id) on delete set null,
        source text,
        parameters jsonb,
        data jsonb not null default '{}'::jsonb,
        data_updated_at timestamptz,
        created_at timestamptz not null default now()
      );
      create index flows_channel on flows (channel_id);

      create table boards (
        id text primary key,
        name text not null,
        settings jsonb not null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );

      create table widgets (
        id text primary key,
        board_id text not null references boards (id) on delete cascade,
        flow_id text not null references flows (id) on delete cascade,
        variant text not null,
        "column" integer not null,
        "row" integer not null,
        width integer not null,
        height integer not null,
        in_board_index integer not null,
        background text not null default 'default'
      );
      create index widgets_board on widgets (board_id);
      create index widgets_flow on widgets (flow_id);

      create table notifications (
        id text primary key,
        channel_id text not null references channels (id) on delete cascade,
        title text,
        message text,
        icon text,
        duration integer not null,
        sound_url text,
        created_at timestamptz not null default now()
      );
      create index notifications_channel on notifications (channel_id, created_at);

      create table playlists (
        id text primary key,
        name text not null,
        items jsonb not null default '[]'::jsonb,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );

      create table devices (
        id text primary key,
        tag text not null unique,
        playlist_id text references playlists (id) on delete set null,
        name text not null default '',
        description text not null default '',
        online boolean not null default false,
        last_seen_date timestamptz,
        last_seen_ip text,
        diagnostics jsonb,
        created_at timestamptz not null default now()
      );

      create table events (
        id bigserial primary key,
        type text not null,
        rooms text[] not null,
        payload jsonb not null,
        created_at timestamptz not null default now()
      );
    `,
  },
  {
    version: 2,
    name: 'scripts',
    sql: `
      create table scripts (
        id text primary key,
        name text not null,
        code text not null,
        run_interval text not null,
        timeout_seconds integer not null default 10,
        enabled boolean not null default true,
        flow_id text references flows (id) on delete set null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      -- A flow is fed by one script at most.
      create unique index scripts_flow on scripts (flow_id) where flow_id is not null;

      create table script_runs (
        seq bigserial primary key,
        id text not null unique,
        script_id text not null references scripts (id) on delete cascade,
        started_at timestamptz not null,
        duration_ms integer not null,
        outcome text not null check (outcome in ('ok', 'error', 'timeout', 'invalid')),
        trigger text not null check (trigger in ('schedule', 'manual')),
        logs jsonb not null default '[]'::jsonb,
        error text
      );
      create index script_runs_script on script_runs (script_id, seq);
    `,
  },
];

/** The table in which those versions were recorded, as the old migration runner made it. */
export const LEGACY_SCHEMA_MIGRATIONS_SQL = `
  create table if not exists schema_migrations (
    version integer primary key,
    name text not null,
    applied_at timestamptz not null default now()
  )`;
