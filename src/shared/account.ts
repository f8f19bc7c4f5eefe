import { z } from 'zod';
import { idSchema, timestampSchema } from './common';

/** The account a token or a user belongs to: every resource they see is its own. */
export const accountSchema = z.object({
  /** `default` for a single-account install's. */
  id: idSchema,
  name: z.string(),
  created_at: timestampSchema,
});
export type Account = z.infer<typeof accountSchema>;
