import { QUOTA_NAMES, type QuotaName } from '../../src/shared/account';
import type { QuotaLimits } from './accounts';

// The quotas' options of `account create` and `account update` (cli-options.ts), and how `account
// list` shows them: one spelling of each, so that what list prints can be typed back.

const MB = 1024 * 1024;

/** Each quota's option, and the most it may be set to (far past any install: a typing mistake). */
const OPTIONS: Record<QuotaName, { option: string; max: number; unit: number }> = {
  media_bytes: { option: 'media-mb', max: 100_000_000, unit: MB },
  media_files: { option: 'media-files', max: 1_000_000_000, unit: 1 },
  scripts: { option: 'scripts', max: 1_000_000_000, unit: 1 },
  devices: { option: 'devices', max: 1_000_000_000, unit: 1 },
  users: { option: 'users', max: 1_000_000_000, unit: 1 },
};

/** What lifts a quota. */
const UNLIMITED = 'unlimited';

/** The options for parseArgs. */
export const QUOTA_ARGS = Object.fromEntries(
  QUOTA_NAMES.map((name) => [OPTIONS[name].option, { type: 'string' as const }]),
) as Record<'media-mb' | 'media-files' | 'scripts' | 'devices' | 'users', { type: 'string' }>;

/** The quotas the command line names; throws, naming the option, for a value that is not one. */
export function quotaLimits(values: Partial<Record<string, string | boolean>>): Partial<QuotaLimits> {
  const limits: Partial<QuotaLimits> = {};
  for (const name of QUOTA_NAMES) {
    const { option, max, unit } = OPTIONS[name];
    const value = values[option];
    if (value === undefined || typeof value === 'boolean') continue;
    if (value === UNLIMITED) {
      limits[name] = null;
      continue;
    }
    if (!/^\d+$/.test(value) || Number(value) > max) {
      throw new Error(
        `--${option} must be a whole number from 0 to ${max}, or "${UNLIMITED}", not "${value}"`,
      );
    }
    limits[name] = Number(value) * unit;
  }
  return limits;
}

/** `media-mb=500 media-files=unlimited …`, as `account list` prints an account's quotas. */
export function describeLimits(limits: QuotaLimits): string {
  return QUOTA_NAMES.map((name) => {
    const { option, unit } = OPTIONS[name];
    const limit = limits[name];
    // A limit set in MB reads back in MB; one not a whole number of them (never from here) rounds up.
    return `${option}=${limit === null ? UNLIMITED : Math.ceil(limit / unit)}`;
  }).join(' ');
}
