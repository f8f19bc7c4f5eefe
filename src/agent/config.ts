import { z } from 'zod';
import { tagSchema } from '../shared/common';

/** A client's configuration with its service and token: what the agent syncs with. */
export interface AgentConfig {
  server: string;
  token: string;
  tag: string;
  name: string;
  heartbeatSeconds: number;
  cacheDir: string;
  /** Largest size of the media cache, in bytes. */
  cacheLimitBytes: number;
}

/**
 * A client's configuration as given: without a service (it is looked for on the network) or a
 * token (the screen pairs by a code), see pairing.ts.
 */
export interface ClientConfig extends Omit<AgentConfig, 'server' | 'token'> {
  server: string | null;
  token: string | null;
}

/** The service a device talks to and as whom: its token, and the device tag that token is for. */
export interface Credential {
  server: string;
  token: string;
  tag: string;
}

/** The configuration's credential, when it has a service and a token. */
export function credentialOf(config: ClientConfig): Credential | null {
  return config.server && config.token
    ? { server: config.server, token: config.token, tag: config.tag }
    : null;
}

export const AGENT_DEFAULTS = {
  heartbeatSeconds: 30,
  cacheLimitBytes: 2 * 1024 ** 3,
};

/** Settings as they may come from flags, the environment or the store: all optional strings or numbers. */
export const settingsSchema = z.object({
  server: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).optional(),
  token: z.string().min(1).optional(),
  tag: tagSchema.optional(),
  name: z.string().max(255).optional(),
  heartbeatSeconds: z.coerce.number().int().min(5, 'must be at least 5 seconds').max(3600).optional(),
  cacheDir: z.string().min(1).optional(),
  cacheLimitBytes: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .optional(),
});
export type Settings = z.infer<typeof settingsSchema>;

function defined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== undefined && v !== ''),
  ) as Partial<T>;
}

export class ConfigError extends Error {}

const withoutSlash = (url: string) => url.replace(/\/+$/, '');

/**
 * Highest first: command-line flags, the environment, the stored settings, the defaults. Each
 * layer is validated on its own so the message names where a bad value came from. The service
 * and the token may be missing: the client then finds one and pairs. A stored token is the
 * stored service's: pointed at another service, the client does not show it there.
 */
export function resolveConfig(
  layers: { flags: object; env: object; stored: unknown },
  defaults: { tag: string; name: string; cacheDir: string },
): ClientConfig {
  const parsed: Settings[] = [];
  for (const [where, layer] of [
    ['command-line flags', layers.flags],
    ['environment', layers.env],
    ['stored settings', layers.stored ?? {}],
  ] as const) {
    const result = settingsSchema.safeParse(defined(layer as object));
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new ConfigError(`${where}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'is invalid'}`);
    }
    parsed.push(result.data);
  }
  const [fromFlags, fromEnv, stored] = parsed as [Settings, Settings, Settings];
  const merged: Settings = Object.assign({}, ...[...parsed].reverse().map(defined));
  const server = merged.server ? withoutSlash(merged.server) : null;
  const foreignToken =
    !fromFlags.token &&
    !fromEnv.token &&
    stored.server !== undefined &&
    server !== withoutSlash(stored.server);
  return {
    server,
    token: (!foreignToken && merged.token) || null,
    tag: merged.tag ?? defaults.tag,
    name: merged.name ?? defaults.name,
    heartbeatSeconds: merged.heartbeatSeconds ?? AGENT_DEFAULTS.heartbeatSeconds,
    cacheDir: merged.cacheDir ?? defaults.cacheDir,
    cacheLimitBytes: merged.cacheLimitBytes ?? AGENT_DEFAULTS.cacheLimitBytes,
  };
}

/** A stable tag from the machine's id: the same screen keeps its name across reinstalls of the app. */
export function defaultTag(machineId: string): string {
  const clean = machineId.toLowerCase().replace(/[^a-z0-9]/g, '');
  return `screen-${clean.slice(0, 12) || 'unknown'}`;
}
