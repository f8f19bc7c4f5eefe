import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Passwords are kept as `scrypt$N$r$p$salt$hash` (salt and hash base64url): the parameters travel
 * with each hash, so raising them later leaves the stored ones verifiable. N=2^15, r=8, p=1 is
 * OWASP's scrypt minimum and costs about 50 ms and 32 MB per check.
 */
const PARAMS = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

interface Params {
  N: number;
  r: number;
  p: number;
}

function derive(password: string, salt: Buffer, { N, r, p }: Params, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    // maxmem: scrypt needs 128 * N * r bytes, which at N=2^15 is Node's default limit exactly.
    scrypt(password, salt, length, { N, r, p, maxmem: 2 * 128 * N * r }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, PARAMS, KEY_LENGTH);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  );
}

/** Whether `password` matches `stored`, compared in constant time; false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(
    password,
    Buffer.from(salt, 'base64url'),
    { N: Number(n), r: Number(r), p: Number(p) },
    expected.length,
  );
  return timingSafeEqual(key, expected);
}

/**
 * A hash no password matches, checked when a login names no user so that the answer takes as
 * long as a wrong password does and does not tell which logins exist.
 */
export const DUMMY_HASH = `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${randomBytes(SALT_LENGTH).toString('base64url')}$${randomBytes(KEY_LENGTH).toString('base64url')}`;

/** Passwords shorter than this are refused. */
export const MIN_PASSWORD_LENGTH = 10;

/** A password for a user made without one: printed once by the command line. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
