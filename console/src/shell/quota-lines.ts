import { QUOTA_NAMES, type Account } from '../../../src/shared/account';

const LABELS: Record<(typeof QUOTA_NAMES)[number], string> = {
  media_bytes: 'Media storage',
  media_files: 'Media files',
  scripts: 'Scripts',
  devices: 'Screens',
  users: 'Users',
};

const MB = 1024 * 1024;

function megabytes(bytes: number): string {
  return `${Math.round((bytes / MB) * 10) / 10} MB`;
}

/**
 * What the user menu says of the account's quotas: one line for each that has a limit (an install
 * without quotas shows none), e.g. "Screens: 9 of 10".
 */
export function quotaLines(quotas: Account['quotas']): { label: string; text: string; full: boolean }[] {
  return QUOTA_NAMES.flatMap((name) => {
    const { used, limit } = quotas[name];
    if (limit === null) return [];
    const amount = name === 'media_bytes' ? megabytes : String;
    return [{ label: LABELS[name], text: `${amount(used)} of ${amount(limit)}`, full: used >= limit }];
  });
}
