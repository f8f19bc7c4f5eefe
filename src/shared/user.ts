import { z } from 'zod';
import { timestampSchema } from './common';

/** An admin acts as a `full` token, a viewer as a `readonly` one (docs/api/users.md). */
export const USER_ROLES = ['admin', 'viewer'] as const;
export const userRoleSchema = z.enum(USER_ROLES, { error: 'must be "admin" or "viewer"' });
export type UserRole = z.infer<typeof userRoleSchema>;

/** The signed-in user of a session (`GET /session`); the password never leaves the service. */
export const userSchema = z.object({
  id: z.string(),
  login: z.string(),
  role: userRoleSchema,
});
export type User = z.infer<typeof userSchema>;

/** A user as `GET /users` lists them. */
export const userRecordSchema = userSchema.extend({
  created_at: timestampSchema,
  updated_at: timestampSchema,
});
export type UserRecord = z.infer<typeof userRecordSchema>;

// Lengths and the login's characters are checked by the service's action, with the CLI's messages.
export const userCreateSchema = z.strictObject({
  login: z.string(),
  password: z.string(),
  role: userRoleSchema,
});
export type UserCreate = z.infer<typeof userCreateSchema>;

export const userUpdateSchema = z
  .strictObject({ role: userRoleSchema.optional(), password: z.string().optional() })
  .refine((body) => body.role !== undefined || body.password !== undefined, {
    message: 'give role, password or both',
  });
export type UserUpdate = z.infer<typeof userUpdateSchema>;
