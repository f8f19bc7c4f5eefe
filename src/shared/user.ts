import { z } from 'zod';
import { timestampSchema } from './common';

/**
 * What a person may do (docs/api/users.md): an admin everything, as a `full` token; an editor
 * changes content (boards, widgets, flows, media, channels, scripts, data sources); a publisher
 * decides what plays (playlists, schedules, screens' playlists, notifications, overrides); a
 * viewer reads. Editors, publishers and viewers may be kept to some screen groups (`groups`).
 */
export const USER_ROLES = ['admin', 'editor', 'publisher', 'viewer'] as const;
export const userRoleSchema = z.enum(USER_ROLES, {
  error: 'must be "admin", "editor", "publisher" or "viewer"',
});
export type UserRole = z.infer<typeof userRoleSchema>;

/**
 * The screen groups a user's role applies to, by id: they see those groups' screens only, and
 * change only what those screens play; content no other group's screen plays stays readable.
 * Empty: the whole account. An admin always has the whole account.
 */
export const userGroupsSchema = z.array(z.string().min(1)).max(100, 'at most 100 groups');

/** The signed-in user of a session (`GET /session`); the password never leaves the service. */
export const userSchema = z.object({
  id: z.string(),
  login: z.string(),
  role: userRoleSchema,
  groups: z.array(z.string()),
  /** Made by single sign-on: signs in through the account's identity provider, has no password. */
  sso: z.boolean(),
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
  groups: userGroupsSchema.optional(),
});
export type UserCreate = z.infer<typeof userCreateSchema>;

export const userUpdateSchema = z
  .strictObject({
    role: userRoleSchema.optional(),
    password: z.string().optional(),
    groups: userGroupsSchema.optional(),
  })
  .refine((body) => body.role !== undefined || body.password !== undefined || body.groups !== undefined, {
    message: 'give role, password, groups or any of them',
  });
export type UserUpdate = z.infer<typeof userUpdateSchema>;
