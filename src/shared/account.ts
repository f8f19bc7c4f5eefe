import { z } from 'zod';
import { idSchema, timestampSchema } from './common';

/** What an account's quotas count (docs/deployment.md#quotas). */
export const QUOTA_NAMES = ['media_bytes', 'media_files', 'scripts', 'devices', 'users'] as const;
export type QuotaName = (typeof QUOTA_NAMES)[number];

/** One quota: how much the account holds, and the most it may (null: no limit). */
export const quotaSchema = z.object({
  used: z.number().int().nonnegative(),
  limit: z.number().int().nonnegative().nullable(),
});
export type Quota = z.infer<typeof quotaSchema>;

/** The account a token or a user belongs to: every resource they see is its own. */
export const accountSchema = z.object({
  /** `default` for a single-account install's. */
  id: idSchema,
  name: z.string(),
  created_at: timestampSchema,
  /** Media bytes and files, scripts, devices and users: a create past one is refused (403 quota_exceeded). */
  quotas: z.object({
    media_bytes: quotaSchema,
    media_files: quotaSchema,
    scripts: quotaSchema,
    devices: quotaSchema,
    users: quotaSchema,
  }),
});
export type Account = z.infer<typeof accountSchema>;
