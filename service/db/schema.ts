import type { ColumnType, Generated } from 'kysely';
import type { Variant } from '../../src/shared/variants';
import type { AlertEvent } from '../../src/shared/alert';
import type { DataSourceKind } from '../../src/shared/data-source';

/**
 * The tables as Kysely sees them, one type for both stores. Where the stores hand values back
 * differently the read type says so, and the mappers in repositories/rows.ts make one shape of
 * them:
 *
 * - timestamps are written as ISO 8601 text; PostgreSQL reads them back as Date, SQLite as
 *   that text;
 * - booleans come back as 0/1 from SQLite, which has no boolean type;
 * - JSON columns are written and read as JSON text on both (postgres.ts reads jsonb as text),
 *   so `fromJson` parses them in one place;
 * - `events.rooms` is `text[]` in PostgreSQL and JSON text in SQLite (see dialect.ts).
 */

type Timestamp = ColumnType<Date | string, string, string>;
type DefaultTimestamp = ColumnType<Date | string, string | undefined, string>;
type NullableTimestamp = ColumnType<Date | string | null, string | null, string | null>;
type Flag = ColumnType<boolean | number, boolean, boolean>;
type DefaultFlag = ColumnType<boolean | number, boolean | undefined, boolean>;
/** JSON text (see above). */
type Json = ColumnType<string, string, string>;
type DefaultJson = ColumnType<string, string | undefined, string>;
type NullableJson = ColumnType<string | null, string | null, string | null>;
type OptionalNullable<T> = ColumnType<T | null, T | null | undefined, T | null>;
type OptionalNullableJson = OptionalNullable<string>;
/** Written by the account plugin from the current account unless an insert names one. */
type AccountColumn = ColumnType<string, string | undefined, string>;

/** A quota of an account (migration 12): the most it may hold, null for no limit. */
type Quota = ColumnType<number | null, number | null | undefined, number | null>;

export interface AccountsTable {
  id: string;
  name: string;
  created_at: DefaultTimestamp;
  quota_media_bytes: Quota;
  quota_media_files: Quota;
  quota_scripts: Quota;
  quota_devices: Quota;
  quota_users: Quota;
}

export interface LeasesTable {
  name: string;
  /** The node holding it (NodeState.id). */
  holder: string;
  expires_at: Timestamp;
}

export interface SchemaMigrationsTable {
  version: number;
  name: string;
  applied_at: DefaultTimestamp;
}

export interface TokensTable {
  id: string;
  scope: 'full' | 'readonly' | 'affiliated';
  name: ColumnType<string, string | undefined, string>;
  secret_hash: string;
  created_at: DefaultTimestamp;
  last_used_at: NullableTimestamp;
  /** The device the token acts for alone (migration 3), or null. */
  device_tag: ColumnType<string | null, string | null | undefined, string | null>;
  /** The account the row belongs to (migration 11; filled by accounts/account-plugin.ts). */
  account_id: AccountColumn;
}

export interface ChannelsTable {
  id: string;
  type: 'default' | 'affiliated' | 'virtualized';
  name: string;
  tag: string;
  parent_channel_id: string | null;
  created_at: DefaultTimestamp;
  /** The account the row belongs to (migration 11; filled by accounts/account-plugin.ts). */
  account_id: AccountColumn;
}

export interface FlowsTable {
  id: string;
  type: 'default' | 'affiliated' | 'virtualized';
  variant: Variant;
  tag: string;
  errored: DefaultFlag;
  enabled: Flag;
  channel_id: string | null;
  source: string | null;
  parameters: NullableJson;
  data: DefaultJson;
  data_updated_at: NullableTimestamp;
  created_at: DefaultTimestamp;
  /** The account the row belongs to (migration 11; filled by accounts/account-plugin.ts). */
  account_id: AccountColumn;
}

export interface BoardsTable {
  id: string;
  name: string;
  settings: Json;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  /** The account the row belongs to (migration 11; filled by accounts/account-plugin.ts). */
  account_id: AccountColumn;
}

export interface WidgetsTable {
  id: string;
  board_id: string;
  flow_id: string;
  variant: Variant;
  column: number;
  row: number;
  width: number;
  height: number;
  in_board_index: number;
  background: ColumnType<string, string | undefined, string>;
  code: OptionalNullableJson;
  /** The account the row belongs to (migration 11; filled by accounts/account-plugin.ts). */
  account_id: AccountColumn;
}

export interface NotificationsTable {
  id: string;
  /** Null for a notification to screens (migration 20): every screen, a group's or one. */
  channel_id: string | null;
  target_group_id: string | null;
  target_device_tag: string | null;
  title: string | null;
  message: string | null;
  icon: string | null;
  duration: number;
  sound_url: string | null;
  created_at: DefaultTimestamp;
  /** The account the row belongs to (migration 11; filled by accounts/account-plugin.ts). */
  account_id: AccountColumn;
}

export interface PlaylistsTable {
  id: string;
  name: string;
  items: DefaultJson;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  /** The account the row belongs to (migration 11; filled by accounts/account-plugin.ts). */
  account_id: AccountColumn;
}

export interface DevicesTable {
  id: string;
  tag: string;
  playlist_id: string | null;
  name: ColumnType<string, string | undefined, string>;
  description: ColumnType<string, string | undefined, string>;
  online: DefaultFlag;
  last_seen_date: NullableTimestamp;
  last_seen_ip: string | null;
  diagnostics: NullableJson;
  created_at: DefaultTimestamp;
  /** Its group, and its own settings, each null when not set on it (migration 8). */
  group_id: OptionalNullable<string>;
  schedule: OptionalNullableJson;
  power: OptionalNullableJson;
  rotation: OptionalNullable<number>;
  time_zone: OptionalNullable<string>;
  /** The zone its last heartbeat reported. */
  reported_time_zone: OptionalNullable<string>;
  /** The account the row belongs to (migration 11; filled by accounts/account-plugin.ts). */
  account_id: AccountColumn;
}

/** Screens managed together (migration 8); each setting null when not set on the group. */
export interface GroupsTable {
  id: string;
  name: string;
  playlist_id: OptionalNullable<string>;
  schedule: OptionalNullableJson;
  power: OptionalNullableJson;
  rotation: OptionalNullable<number>;
  time_zone: OptionalNullable<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The account the row belongs to (migration 11; filled by accounts/account-plugin.ts). */
  account_id: AccountColumn;
}

export interface EventsTable {
  id: Generated<number>;
  type: string;
  /** `text[]` in PostgreSQL, JSON text in SQLite: written and read through dialect.ts. */
  rooms: ColumnType<string[] | string, string[] | string, never>;
  payload: Json;
  created_at: DefaultTimestamp;
  /** The account the row belongs to (migration 11; filled by accounts/account-plugin.ts). */
  account_id: AccountColumn;
}

export interface ScriptsTable {
  id: string;
  name: string;
  code: string;
  run_interval: string;
  timeout_seconds: ColumnType<number, number | undefined, number>;
  enabled: DefaultFlag;
  flow_id: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  /** The account the row belongs to (migration 11; filled by accounts/account-plugin.ts). */
  account_id: AccountColumn;
}

export interface ScriptRunsTable {
  seq: Generated<number>;
  id: string;
  script_id: string;
  started_at: Timestamp;
  duration_ms: number;
  outcome: 'ok' | 'error' | 'timeout' | 'invalid';
  trigger: 'schedule' | 'manual';
  logs: DefaultJson;
  error: string | null;
  /** The account the row belongs to (migration 11; filled by accounts/account-plugin.ts). */
  account_id: AccountColumn;
}

/** A screen's pairing by a code (migration 3). */
export interface PairingsTable {
  id: string;
  code: string;
  secret_hash: string;
  created_at: DefaultTimestamp;
  expires_at: Timestamp;
  claimed_at: NullableTimestamp;
  device_tag: ColumnType<string | null, string | null | undefined, string | null>;
  token_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The claimed token's secret, until its device reads it. */
  token_secret: ColumnType<string | null, string | null | undefined, string | null>;
  read_at: NullableTimestamp;
  /** Who asked for it (migration 13): an IPv4 address or an IPv6 /64, which holds a few at most. */
  source: ColumnType<string | null, string | null | undefined, string | null>;
  /** Its screen's first poll (migration 13): never-polled ones make room when the table is full. */
  polled_at: NullableTimestamp;
  /** The account that claimed it (migration 11; set by the claim, pairings are not scoped). */
  account_id: AccountColumn;
}

/** A remote command to a device (migration 4). */
export interface CommandsTable {
  id: string;
  device_id: string;
  /** `wake` from migration 8. */
  type: 'reload' | 'restart' | 'identify' | 'screenshot' | 'wake';
  status: 'queued' | 'delivered' | 'done' | 'failed';
  reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  expires_at: Timestamp;
  /** The account the row belongs to (migration 11; filled by accounts/account-plugin.ts). */
  account_id: AccountColumn;
}

/** The newest screenshot of a device (migration 4): SQLite reads a blob as Uint8Array, pg as Buffer. */
export interface ScreenshotsTable {
  device_id: string;
  png: ColumnType<Uint8Array, Uint8Array, Uint8Array>;
  width: number;
  height: number;
  taken_at: Timestamp;
  /** The account the row belongs to (migration 11; filled by accounts/account-plugin.ts). */
  account_id: AccountColumn;
}

/** Proof of play: one item's turn on a screen (migration 4). */
export interface PlaysTable {
  id: string;
  device_id: string;
  type: 'board' | 'image' | 'video' | 'web';
  board_id: string | null;
  url: string | null;
  channel_id: string | null;
  started_at: Timestamp;
  ended_at: Timestamp;
  received_at: DefaultTimestamp;
  /** The account the row belongs to (migration 11; filled by accounts/account-plugin.ts). */
  account_id: AccountColumn;
}

/** Someone who signs in to the console (migration 5). */
export interface UsersTable {
  id: string;
  login: string;
  /** `login` in lower case: unique, so logins are case-insensitive. */
  login_key: string;
  /** `scrypt$N$r$p$salt$hash` (domain/passwords.ts). */
  /** Empty for a user made by single sign-on, who has no password (migration 23). */
  password_hash: string;
  role: 'admin' | 'editor' | 'publisher' | 'viewer';
  /** JSON array of the screen groups the role applies to; `[]`: the whole account (migration 23). */
  groups: DefaultJson;
  /** `issuer subject` of a user made by single sign-on, or null (migration 23). */
  sso_subject: OptionalNullable<string>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  /** The account the row belongs to (migration 11; filled by accounts/account-plugin.ts). */
  account_id: AccountColumn;
}

/** A signed-in browser (migration 5); times written by the service's clock. */
export interface SessionsTable {
  id: string;
  user_id: string;
  secret_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  last_seen_at: Timestamp;
}

/** A screen's status history (migration 7). */
export interface DeviceHistoryTable {
  seq: Generated<number>;
  device_id: string;
  at: Timestamp;
  kind: 'online' | 'offline' | 'showing' | 'failure' | 'recovery';
  detail: ColumnType<string, string | undefined, string>;
  /** The account the row belongs to (migration 11; filled by accounts/account-plugin.ts). */
  account_id: AccountColumn;
}

/** A one-time sign-in code (migration 7): its hash only. */
export interface SignInCodesTable {
  id: string;
  user_id: string;
  code_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** A medium of the library (migration 6); its bytes are kept per `sha256` (service/media/). */
export interface MediaTable {
  id: string;
  name: string;
  content_type: string;
  kind: 'image' | 'video' | 'sound';
  bytes: number;
  sha256: string;
  created_at: Timestamp;
  /** The account the row belongs to (migration 11; filled by accounts/account-plugin.ts). */
  account_id: AccountColumn;
  /** Migration 21: a JSON array of the operator's tags. */
  tags: Generated<string>;
  /** Migration 21: when screens stop playing it; null: never. */
  expires_at: ColumnType<Date | string | null, string | null | undefined, string | null>;
}

/** PostgreSQL only (migration 6): one content of the library, its bytes in `media_chunks`. */
export interface MediaBlobsTable {
  sha256: string;
  bytes: number;
  chunk_bytes: number;
}

/** PostgreSQL only: the `seq`th chunk of a content; pg reads bytea as Buffer. */
export interface MediaChunksTable {
  sha256: string;
  seq: number;
  bytes: ColumnType<Uint8Array, Uint8Array, Uint8Array>;
}

/** Where alerts go (migration 15): a webhook (with its HMAC secret), e-mail, Slack or Teams. */
export interface AlertDestinationsTable {
  id: string;
  kind: 'webhook' | 'email' | 'slack' | 'teams';
  name: ColumnType<string, string | undefined, string>;
  url: OptionalNullable<string>;
  /** An e-mail destination's addresses, a JSON array. */
  recipients: OptionalNullableJson;
  secret: OptionalNullable<string>;
  created_at: DefaultTimestamp;
  /** The account the row belongs to (filled by accounts/account-plugin.ts). */
  account_id: AccountColumn;
}

/** When alerts fire (migrations 15 and 18); no target column set: every screen, script or node. */
export interface AlertRulesTable {
  id: string;
  event: AlertEvent;
  /** Null for script.failing, which counts `failures` instead. */
  after_seconds: OptionalNullable<number>;
  failures: OptionalNullable<number>;
  target_group_id: OptionalNullable<string>;
  target_device_tag: OptionalNullable<string>;
  target_script_id: OptionalNullable<string>;
  created_at: DefaultTimestamp;
  /** The account the row belongs to (filled by accounts/account-plugin.ts). */
  account_id: AccountColumn;
}

/** The destinations of a rule (migration 15). */
export interface AlertRuleDestinationsTable {
  rule_id: string;
  destination_id: string;
  /** The account the row belongs to (filled by accounts/account-plugin.ts). */
  account_id: AccountColumn;
}

/** An incident (migrations 15 and 18): the screens, scripts or node a rule found together. */
export interface AlertsTable {
  id: string;
  rule_id: string;
  event: AlertEvent;
  status: 'firing' | 'resolved';
  /** JSON `[{tag, name}]`, by tag. */
  devices: Json;
  /** script.failing: JSON `[{id, name, failures, reason, seq}]`, by id. */
  scripts: OptionalNullableJson;
  /** node.unwritable: JSON `{id, reason, since}`. */
  node: OptionalNullableJson;
  started_at: Timestamp;
  /** Screens that qualify until then join this incident; its alert goes out then. */
  gather_until: Timestamp;
  resolved_at: NullableTimestamp;
  /** The account the row belongs to (filled by accounts/account-plugin.ts). */
  account_id: AccountColumn;
}

/** One message of an incident to one destination, and its attempts (migration 15). */
export interface AlertDeliveriesTable {
  id: string;
  alert_id: string;
  destination_id: string;
  phase: 'firing' | 'resolved';
  status: 'pending' | 'delivered' | 'failed';
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: NullableTimestamp;
  delivered_at: NullableTimestamp;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: DefaultTimestamp;
  /** The account the row belongs to (filled by accounts/account-plugin.ts). */
  account_id: AccountColumn;
}

/** Emergency overrides (migration 16), kept after they end as their audit list. */
export interface OverridesTable {
  id: string;
  title: string;
  message: string;
  image_url: string | null;
  sound_url: string | null;
  background_color: string | null;
  /** Neither target column set: every screen of the account. */
  target_group_id: string | null;
  target_device_tag: string | null;
  expires_at: NullableTimestamp;
  created_at: Timestamp;
  created_by: string;
  cleared_at: NullableTimestamp;
  cleared_by: string | null;
  /** Set when a CAP feed raised it (migration 19): the feed, and its alert's `<identifier>`. */
  source_feed_id: OptionalNullable<string>;
  source_cap_identifier: OptionalNullable<string>;
  account_id: AccountColumn;
}

/** CAP feeds (migration 19); no target column set: every screen of the account. */
export interface CapFeedsTable {
  id: string;
  name: string;
  url: string;
  target_group_id: string | null;
  target_device_tag: string | null;
  min_severity: 'Extreme' | 'Severe' | 'Moderate' | 'Minor' | 'Unknown';
  /** A JSON array of the area names the feed takes alerts of; empty: any. */
  areas: DefaultJson;
  poll_seconds: number;
  created_at: Timestamp;
  created_by: string;
  last_polled_at: OptionalNullable<Date | string>;
  last_ok_at: OptionalNullable<Date | string>;
  last_error: OptionalNullable<string>;
  account_id: AccountColumn;
}

export interface DataSourcesTable {
  id: string;
  name: string;
  kind: DataSourceKind;
  url: string;
  auth: 'none' | 'basic' | 'bearer';
  username: string | null;
  /** The password or token: written, used to connect, never answered. */
  secret: string | null;
  /** A JSON object of header names and values. */
  headers: DefaultJson;
  interval_seconds: number;
  timeout_seconds: number;
  allow_private: DefaultFlag;
  created_at: Timestamp;
  last_run_at: OptionalNullable<Date | string>;
  last_ok_at: OptionalNullable<Date | string>;
  last_error: OptionalNullable<string>;
  account_id: AccountColumn;
}

export interface DataBindingsTable {
  id: string;
  source_id: string;
  flow_id: string;
  query: string;
  /** A JSON `{seconds, step_seconds}` for a Prometheus range query, or null. */
  range: OptionalNullableJson;
  /** A JSON object of variant fields and their expressions. */
  mapping: string;
  created_at: Timestamp;
  last_run_at: OptionalNullable<Date | string>;
  last_ok_at: OptionalNullable<Date | string>;
  last_error: OptionalNullable<string>;
  account_id: AccountColumn;
}

export interface DataSourceRunsTable {
  id: string;
  source_id: string;
  started_at: Timestamp;
  duration_ms: number;
  ok: Flag;
  updated: number;
  failed: number;
  error: string | null;
  account_id: AccountColumn;
}

/**
 * The audit trail (migration 24): one row per change of an audited row, written in the change's
 * own transaction by the store's triggers (service/audit/), or per sign-in by the service.
 */
export interface AuditLogTable {
  /** The entry's id: it orders the entries of one store, newest last. */
  seq: Generated<number>;
  at: Timestamp;
  actor_kind: 'user' | 'token' | 'system';
  actor_id: string;
  actor_name: string;
  address: string | null;
  /** The table changed (`boards`), or `sessions` for sign-ins. */
  resource: string;
  resource_id: string | null;
  action: string;
  /** The row before and after, as JSON text, secrets masked; null when there is none. */
  before: string | null;
  after: string | null;
  /** The account the row belongs to (filled by accounts/account-plugin.ts or the trigger). */
  account_id: AccountColumn;
}

/** A script's named secret (migration 25): the value is written, used by runs, never answered. */
export interface ScriptSecretsTable {
  id: string;
  script_id: string;
  name: string;
  value: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  account_id: AccountColumn;
}

/** An account's single sign-on through OpenID Connect (migration 26), one row at most. */
export interface AccountSsoTable {
  issuer: string;
  client_id: string;
  /** Write-only: never answered. */
  client_secret: string | null;
  /** JSON array of scopes asked for besides `openid profile email`. */
  scopes: DefaultJson;
  /** The claim read for the role, and its values' roles (JSON object); likewise for groups. */
  role_claim: string | null;
  role_map: DefaultJson;
  group_claim: string | null;
  group_map: DefaultJson;
  default_role: string | null;
  sso_only: DefaultFlag;
  created_at: Timestamp;
  updated_at: Timestamp;
  account_id: AccountColumn;
}

/** A sign-in through single sign-on under way (migration 26), found by its browser cookie's hash. */
export interface SsoFlowsTable {
  id: string;
  /** The account signing in (not an account table: looked up before the account is known). */
  account: string;
  state: string;
  nonce: string;
  code_verifier: string;
  expires_at: Timestamp;
}

/** A player release (migration 27, docs/updates.md); listed and offered once `ready`. */
export interface ReleasesTable {
  id: string;
  kind: 'shell' | 'web';
  channel: 'stable' | 'beta';
  version: string;
  notes: string;
  ready: DefaultFlag;
  created_at: Timestamp;
  /** Its files' sizes summed, counted by the media quota (migration 29). */
  bytes: ColumnType<number | string, number | undefined, number>;
  account_id: AccountColumn;
}

/** A file of a release; its bytes are the media storage's, by `sha256` (migration 27). */
export interface ReleaseFilesTable {
  release_id: string;
  name: string;
  size: number;
  /** base64, as electron-builder writes it. */
  sha512: string;
  /** hex: the media storage's key of the bytes. */
  sha256: string;
  account_id: AccountColumn;
}

/** A release offered to groups (`group_ids`, JSON) or to a percentage of screens (migration 27). */
export interface RolloutsTable {
  id: string;
  release_id: string;
  kind: 'shell' | 'web';
  group_ids: string | null;
  percentage: number | null;
  created_at: Timestamp;
  rolled_back_at: NullableTimestamp;
  account_id: AccountColumn;
}

/** A screen held to a release of a kind (migration 27). */
export interface ReleasePinsTable {
  device_tag: string;
  kind: 'shell' | 'web';
  release_id: string;
  created_at: Timestamp;
  account_id: AccountColumn;
}

/** A screen's last update report per kind (migration 27). */
export interface UpdateReportsTable {
  device_tag: string;
  kind: 'shell' | 'web';
  version: string;
  outcome: 'downloading' | 'installed' | 'failed' | 'rolled_back';
  detail: string;
  reported_at: Timestamp;
  account_id: AccountColumn;
}

/** Sync groups (migration 28, docs/sync.md); the wall's columns all set, or none. */
export interface SyncGroupsTable {
  id: string;
  name: string;
  wall_columns: number | null;
  wall_rows: number | null;
  screen_width_mm: number | null;
  screen_height_mm: number | null;
  bezel_x_mm: number | null;
  bezel_y_mm: number | null;
  epoch: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  account_id: AccountColumn;
}

/** A screen's place in a sync group (migration 28): its cell of the wall, or none. */
export interface SyncGroupMembersTable {
  device_id: string;
  sync_group_id: string;
  wall_column: number | null;
  wall_row: number | null;
  account_id: AccountColumn;
}

export interface Schema {
  leases: LeasesTable;
  accounts: AccountsTable;
  schema_migrations: SchemaMigrationsTable;
  tokens: TokensTable;
  channels: ChannelsTable;
  flows: FlowsTable;
  boards: BoardsTable;
  widgets: WidgetsTable;
  notifications: NotificationsTable;
  playlists: PlaylistsTable;
  devices: DevicesTable;
  events: EventsTable;
  scripts: ScriptsTable;
  script_runs: ScriptRunsTable;
  commands: CommandsTable;
  screenshots: ScreenshotsTable;
  plays: PlaysTable;
  pairings: PairingsTable;
  users: UsersTable;
  sessions: SessionsTable;
  media: MediaTable;
  media_blobs: MediaBlobsTable;
  media_chunks: MediaChunksTable;
  device_history: DeviceHistoryTable;
  sign_in_codes: SignInCodesTable;
  groups: GroupsTable;
  alert_destinations: AlertDestinationsTable;
  alert_rules: AlertRulesTable;
  alert_rule_destinations: AlertRuleDestinationsTable;
  alerts: AlertsTable;
  alert_deliveries: AlertDeliveriesTable;
  overrides: OverridesTable;
  cap_feeds: CapFeedsTable;
  data_sources: DataSourcesTable;
  data_bindings: DataBindingsTable;
  data_source_runs: DataSourceRunsTable;
  audit_log: AuditLogTable;
  script_secrets: ScriptSecretsTable;
  account_sso: AccountSsoTable;
  sso_flows: SsoFlowsTable;
  releases: ReleasesTable;
  release_files: ReleaseFilesTable;
  rollouts: RolloutsTable;
  release_pins: ReleasePinsTable;
  update_reports: UpdateReportsTable;
  sync_groups: SyncGroupsTable;
  sync_group_members: SyncGroupMembersTable;
}
