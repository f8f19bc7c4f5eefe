import { z } from 'zod';
import { timestampSchema } from './common';
import { textSchema } from './limits';

/** A secret's name, as an environment variable's: `API_KEY`, `TOKEN_2`. */
export const SCRIPT_SECRET_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;
/** Characters of one value: a key, a token or a password, not a file. */
export const SCRIPT_SECRET_VALUE_MAX = 4096;
/** Secrets of one script. */
export const SCRIPT_SECRETS_MAX = 50;

export const scriptSecretNameSchema = z
  .string()
  .regex(
    SCRIPT_SECRET_NAME,
    'must be an upper-case letter then up to 63 upper-case letters, digits or underscores, such as API_KEY',
  );

/** What is answered of a secret: never its value. */
export const scriptSecretSchema = z.object({
  name: scriptSecretNameSchema,
  created_at: timestampSchema,
  updated_at: timestampSchema,
});
export type ScriptSecret = z.infer<typeof scriptSecretSchema>;

/** The value is written once and never answered again. */
export const scriptSecretPutSchema = z.strictObject({
  value: textSchema
    .min(1, 'must not be empty')
    .max(SCRIPT_SECRET_VALUE_MAX, `must be at most ${SCRIPT_SECRET_VALUE_MAX} characters`),
});
export type ScriptSecretPut = z.infer<typeof scriptSecretPutSchema>;
