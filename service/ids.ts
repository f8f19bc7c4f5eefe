import { randomBytes } from 'node:crypto';

/**
 * A new id: a short prefix naming the kind, the time in base 36 (so ids sort roughly by age) and
 * 64 random bits. Globally unique in practice, and never reused.
 */
export function newId(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}${randomBytes(8).toString('hex')}`;
}
