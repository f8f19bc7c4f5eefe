import { z } from 'zod';
import { idSchema, tagSchema, timestampSchema } from './common';
import { textSchema } from './limits';

export const TOKEN_SCOPES = ['full', 'readonly', 'affiliated'] as const;
export const tokenScopeSchema = z.enum(TOKEN_SCOPES, {
  error: 'must be one of "full", "readonly", "affiliated"',
});
export type TokenScope = z.infer<typeof tokenScopeSchema>;

/** A token as listed: the secret itself is never returned after creation. */
export const tokenSchema = z.object({
  id: idSchema,
  scope: tokenScopeSchema,
  name: z.string(),
  created_at: timestampSchema,
  last_used_at: timestampSchema.nullable(),
  /** The device the token acts for alone (docs/api.md, device-bound tokens), or null. */
  device_tag: tagSchema.nullable(),
});
export type Token = z.infer<typeof tokenSchema>;

export const tokenCreateSchema = z
  .strictObject({
    scope: tokenScopeSchema,
    name: textSchema.trim().max(100, 'must be at most 100 characters').default(''),
    /** Binds the token to this device: it then acts for that device only. */
    device_tag: tagSchema.optional(),
  })
  .refine((token) => token.device_tag === undefined || token.scope === 'affiliated', {
    path: ['device_tag'],
    message: 'only a token of scope "affiliated" can be bound to a device',
  });
export type TokenCreate = z.infer<typeof tokenCreateSchema>;

/** The answer to a creation: the only time the secret is shown. */
export const tokenCreatedSchema = tokenSchema.extend({ token: z.string().min(20) });
export type TokenCreated = z.infer<typeof tokenCreatedSchema>;

/** `GET /account/tokens?scope=full&scope=readonly`: the parameter may repeat or be absent. */
export const tokenListQuerySchema = z.strictObject({
  scope: z
    .union([tokenScopeSchema, z.array(tokenScopeSchema)])
    .optional()
    .transform((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value])),
});
