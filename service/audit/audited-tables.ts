/**
 * What the audit trail records (docs/audit.md), in one place: the tables whose rows people
 * configure, each with the columns that name a row, the columns left out (values fed by screens,
 * data sources and metric writes, not a change of how anything is set up) and the columns that
 * hold secrets (recorded as `***`, never their value). The store's triggers are made from this
 * (triggers.ts) after every migration; a table not yet made is skipped until a migration makes it.
 *
 * Not audited, on purpose: what grows by itself (events, plays, device_history, script_runs,
 * data_source_runs, alerts, alert_deliveries, screenshots), the audit log itself, and what is no
 * account's (sessions, pairings: a sign-in is recorded by the service, record.ts).
 */
export interface AuditedTable {
  /** The columns whose values, joined by `/`, are the entry's `resource_id`. */
  key: readonly string[];
  /** Left out of before and after; an update that changes only these records nothing. */
  ignored?: readonly string[];
  /** Recorded as `***` when set (`*** (changed)` after an update that changed it). */
  secret?: readonly string[];
}

const RUN_STATE = ['last_run_at', 'last_ok_at', 'last_error'] as const;

export const AUDITED_TABLES: Readonly<Record<string, AuditedTable>> = {
  boards: { key: ['id'] },
  widgets: { key: ['id'] },
  // A flow's definition; its data is written by metric writes and scripts, many times a minute.
  flows: { key: ['tag'], ignored: ['data', 'data_updated_at', 'errored'] },
  channels: { key: ['id'] },
  playlists: { key: ['id'] },
  // A screen's settings; what its heartbeats report is its own.
  devices: {
    key: ['tag'],
    ignored: ['online', 'last_seen_date', 'last_seen_ip', 'diagnostics', 'reported_time_zone'],
  },
  groups: { key: ['id'] },
  media: { key: ['id'] },
  scripts: { key: ['id'] },
  script_secrets: { key: ['id'], secret: ['value'] },
  users: { key: ['id'], secret: ['password_hash'] },
  tokens: { key: ['id'], ignored: ['last_used_at'], secret: ['secret_hash'] },
  // A webhook's URL (Slack's, Teams') is its key.
  alert_destinations: { key: ['id'], secret: ['secret', 'url'] },
  alert_rules: { key: ['id'] },
  alert_rule_destinations: { key: ['rule_id', 'destination_id'] },
  overrides: { key: ['id'] },
  cap_feeds: { key: ['id'], ignored: ['last_polled_at', ...RUN_STATE] },
  data_sources: { key: ['id'], ignored: RUN_STATE, secret: ['secret'] },
  data_bindings: { key: ['id'], ignored: RUN_STATE },
  notifications: { key: ['id'] },
  commands: { key: ['id'] },
  account_sso: { key: ['account_id'], secret: ['client_secret'] },
  // Player releases (docs/updates.md): `ready` flips once its files are kept, no one's choice.
  releases: { key: ['id'], ignored: ['ready'] },
  rollouts: { key: ['id'] },
  release_pins: { key: ['device_tag', 'kind'] },
  // Sync groups and walls (docs/sync.md).
  sync_groups: { key: ['id'] },
  sync_group_members: { key: ['device_id'] },
};

/** The columns no entry repeats: the account is the entry's own. */
export const NEVER_RECORDED: readonly string[] = ['account_id'];

/** What a secret is recorded as. */
export const MASK = '***';
export const MASK_CHANGED = '*** (changed)';
