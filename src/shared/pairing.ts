import { z } from 'zod';
import { idSchema, tagSchema, timestampSchema } from './common';
import { deviceCreateSchema } from './device';

/**
 * Pairing a screen by a code (docs/api.md, Pairing): a screen without a credential asks for a
 * pairing, shows its code, and polls with the pairing's secret until an operator claims the code;
 * then it is answered its device's tag and its own token, once.
 */

/** Characters of a code: no 0/O, 1/I/L, so that a code read across a room is typed right. */
export const PAIRING_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const PAIRING_CODE_LENGTH = 6;
/** How long a code can be claimed, and how long a claimed pairing waits for its device's read. */
export const PAIRING_TTL_SECONDS = 600;

const CODE_PATTERN = new RegExp(`^[${PAIRING_CODE_ALPHABET}]{${PAIRING_CODE_LENGTH}}$`);

/**
 * A code as an operator types it: any case, spaces and dashes ignored ("7hk 3mq" is "7HK3MQ").
 * Characters the alphabet leaves out are refused, not guessed at.
 */
export const pairingCodeSchema = z
  .string()
  .max(32, 'must be at most 32 characters')
  .transform((code) => code.replace(/[\s-]/g, '').toUpperCase())
  .pipe(
    z
      .string()
      .regex(
        CODE_PATTERN,
        `must be the ${PAIRING_CODE_LENGTH} characters shown on the screen (letters and digits without 0, O, 1, I, L)`,
      ),
  );

/** `POST /pairings` answers 201 with this; `secret` is shown this once. */
export const pairingCreatedSchema = z.object({
  pairing_id: idSchema,
  code: z.string().regex(CODE_PATTERN),
  secret: z.string().min(20),
  expires_at: timestampSchema,
});
export type PairingCreated = z.infer<typeof pairingCreatedSchema>;

/** `GET /pairings/:pairing_id`: pending, or claimed with the device's token (answered once). */
export const pairingStatusSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('pending') }),
  z.object({ status: z.literal('claimed'), device_tag: tagSchema, token: z.string().min(20) }),
]);
export type PairingStatus = z.infer<typeof pairingStatusSchema>;

/** `POST /pairings/claim`: the code, and the device to create (or the existing one to re-pair). */
export const pairingClaimSchema = z.strictObject({
  code: pairingCodeSchema,
  tag: tagSchema.optional(),
  name: deviceCreateSchema.shape.name.unwrap().optional(),
  playlist_id: idSchema.nullable().optional(),
});
export type PairingClaim = z.infer<typeof pairingClaimSchema>;
