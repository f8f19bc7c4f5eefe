// The agent's settings as command-line flags and environment variables, declared once: the
// Electron shell, the web player and `npm start` take the same ones, parse them alike and list
// them alike in their --help.
import type { Settings } from './config';

interface AgentFlag {
  /** The flag without its dashes. */
  flag: string;
  setting: keyof Settings;
  env: string;
  placeholder: string;
  help: string;
  /** Said after the environment variable, e.g. "default 30". */
  fallback?: string;
}

export const AGENT_FLAGS = [
  {
    flag: 'server',
    setting: 'server',
    env: 'WALLBOARD_SERVER',
    placeholder: '<url>',
    help: 'the Wallboard service',
  },
  {
    flag: 'token',
    setting: 'token',
    env: 'WALLBOARD_TOKEN',
    placeholder: '<token>',
    help: 'a token of the service',
  },
  {
    flag: 'tag',
    setting: 'tag',
    env: 'WALLBOARD_TAG',
    placeholder: '<tag>',
    help: "this screen's device tag",
    fallback: 'default from the machine id',
  },
  {
    flag: 'name',
    setting: 'name',
    env: 'WALLBOARD_NAME',
    placeholder: '<name>',
    help: "this screen's name",
    fallback: 'default the host name',
  },
  {
    flag: 'heartbeat',
    setting: 'heartbeatSeconds',
    env: 'WALLBOARD_HEARTBEAT',
    placeholder: '<seconds>',
    help: 'seconds between heartbeats',
    fallback: 'default 30',
  },
  {
    flag: 'cache-dir',
    setting: 'cacheDir',
    env: 'WALLBOARD_CACHE_DIR',
    placeholder: '<dir>',
    help: 'the media cache',
  },
] as const satisfies readonly AgentFlag[];

export type AgentFlagName = (typeof AGENT_FLAGS)[number]['flag'];
type RawSettings = Partial<Record<keyof Settings, string>>;

/** The `options` of node:util's parseArgs for every agent flag. */
export const AGENT_FLAG_OPTIONS = Object.fromEntries(
  AGENT_FLAGS.map(({ flag }) => [flag, { type: 'string' }]),
) as Record<AgentFlagName, { type: 'string' }>;

/** The agent's settings among parsed flags (parseArgs' `values`), as strings to validate. */
export function settingsFromFlags(values: Record<string, unknown>): RawSettings {
  const settings: RawSettings = {};
  for (const { flag, setting } of AGENT_FLAGS) {
    const value = values[flag];
    if (typeof value === 'string') settings[setting] = value;
  }
  return settings;
}

/** WALLBOARD_SERVER, WALLBOARD_TOKEN, ... */
export function settingsFromEnv(env: Record<string, string | undefined>): RawSettings {
  return Object.fromEntries(AGENT_FLAGS.map(({ setting, env: name }) => [setting, env[name]])) as RawSettings;
}

/** The flags back as a command line, for a process started with the same settings. */
export function flagsOf(values: Record<string, unknown>): string[] {
  return AGENT_FLAGS.flatMap(({ flag }) => {
    const value = values[flag];
    return typeof value === 'string' ? [`--${flag}`, value] : [];
  });
}

/** A help line per flag, in the column layout of every --help; `notes` adds a command's own words. */
export function agentFlagHelp(notes: Partial<Record<AgentFlagName, string>> = {}): string {
  return AGENT_FLAGS.map((entry: AgentFlag) => {
    const head = `  --${entry.flag} ${entry.placeholder}`.padEnd(25);
    const where = [entry.env, notes[entry.flag as AgentFlagName] ?? entry.fallback]
      .filter(Boolean)
      .join('; ');
    return `${head}${entry.help} (${where})`;
  }).join('\n');
}
