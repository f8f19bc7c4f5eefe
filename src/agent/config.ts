import { z } from 'zod';
import { tagSchema } from '../shared/common';

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

/**
 * Highest first: command-line flags, the environment, the stored settings, the defaults. Each
 * layer is validated on its own so the message names where a bad value came from.
 */
export function resolveConfig(
  layers: { flags: object; env: object; stored: unknown },
  defaults: { tag: string; name: string; cacheDir: string },
): AgentConfig {
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
  const merged: Settings = Object.assign({}, ...[...parsed].reverse().map(defined));
  if (!merged.server) throw new ConfigError('no service configured: give --server <url> or WALLBOARD_SERVER');
  if (!merged.token) throw new ConfigError('no token configured: give --token <t> or WALLBOARD_TOKEN');
  return {
    server: merged.server.replace(/\/+$/, ''),
    token: merged.token,
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
