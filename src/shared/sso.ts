import { z } from 'zod';
import { timestampSchema } from './common';
import { userRoleSchema } from './user';

/** A claim's name as providers spell them (`groups`, `roles`, `https://example.com/role`). */
const claimSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'at most 200 characters')
  .regex(/^[^\s]+$/, 'must have no spaces');

/** A claim value, as the provider sends it (a group's name or id, a role's name). */
const claimValueSchema = z.string().min(1, 'must not be empty').max(200, 'at most 200 characters');

/** Claim value to role: a person whose claim holds several values gets the strongest role named. */
export const ssoRoleMapSchema = z
  .record(claimValueSchema, userRoleSchema)
  .refine((map) => Object.keys(map).length <= 100, 'at most 100 values');

/** Claim value to screen group id (docs/single-sign-on.md): the groups of every value held. */
export const ssoGroupMapSchema = z
  .record(claimValueSchema, z.string().min(1, 'must name a screen group'))
  .refine((map) => Object.keys(map).length <= 100, 'at most 100 values');

/** Extra scopes asked for besides `openid profile email`, for providers that send groups only then. */
const scopesSchema = z
  .array(z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, 'a scope has no spaces or quotes'))
  .max(20, 'at most 20 scopes');

/** An account's single sign-on, as `GET /account/sso` answers it: the client secret never leaves. */
export const ssoConfigSchema = z.object({
  issuer: z.string(),
  client_id: z.string(),
  has_client_secret: z.boolean(),
  scopes: z.array(z.string()),
  role_claim: z.string().nullable(),
  role_map: z.record(z.string(), userRoleSchema),
  group_claim: z.string().nullable(),
  group_map: z.record(z.string(), z.string()),
  /** The role of a person no rule maps; null: such a person is refused. */
  default_role: userRoleSchema.nullable(),
  /** Passwords are refused for this account's users (the command line's `user link` still signs in). */
  sso_only: z.boolean(),
  /** What to register at the provider as the redirect URI, as this request reached the service. */
  redirect_uri: z.string(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
});
export type SsoConfig = z.infer<typeof ssoConfigSchema>;

/**
 * `PUT /account/sso`: the whole configuration. `client_secret` left out keeps the stored one,
 * null removes it (a public client, PKCE alone).
 */
export const ssoConfigSaveSchema = z.strictObject({
  issuer: z
    .url({ protocol: /^https?$/, error: 'must be the provider’s issuer URL, http(s)://…' })
    .max(500, 'at most 500 characters'),
  client_id: z.string().trim().min(1, 'must not be empty').max(500, 'at most 500 characters'),
  client_secret: z.string().min(1, 'must not be empty').max(2000).nullable().optional(),
  scopes: scopesSchema.default([]),
  role_claim: claimSchema.nullable().default(null),
  role_map: ssoRoleMapSchema.default({}),
  group_claim: claimSchema.nullable().default(null),
  group_map: ssoGroupMapSchema.default({}),
  default_role: userRoleSchema.nullable().default(null),
  sso_only: z.boolean().default(false),
});
export type SsoConfigSave = z.input<typeof ssoConfigSaveSchema>;
/** A save as checked, its defaults filled. */
export type SsoConfigBody = z.output<typeof ssoConfigSaveSchema>;

/** `GET /session/sso/options?account=`: what the sign-in page offers, told to anyone. */
export const ssoOptionsSchema = z.object({ sso: z.boolean() });

/** Why a sign-in through the provider ended without a session: `?sso_error=` on the console's page. */
export const SSO_ERRORS = {
  denied: 'The identity provider did not sign you in (you, or it, cancelled). Try again.',
  expired:
    'The sign-in took too long, was already used, or started in another browser. Start again from this page.',
  unmapped:
    'You signed in at the identity provider, but this account gives no role to people like you. Ask an admin of Wallboard to map your group or role.',
  login_taken:
    'A user with your login already signs in here by password. Ask an admin of Wallboard to remove or rename that user first.',
  no_login:
    'The identity provider sent neither a usable username nor an email for you. Ask an admin to have it send `preferred_username` or `email`.',
  not_configured: 'Single sign-on is not set up for this account.',
  provider:
    'The identity provider could not be reached or answered wrongly. Try again later, or ask an admin.',
  quota: 'This account has as many users as it may have. Ask an admin to remove one.',
} as const;
export type SsoError = keyof typeof SSO_ERRORS;
