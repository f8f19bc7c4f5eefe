import { expirePairings } from '../actions/pairings';
import type { ServiceContext } from '../context';
import { every, type Job } from './jobs';

/** Once a minute: a pairing lives 10 minutes, so it is let go of at most a minute late. */
export const PAIRING_EXPIRY_INTERVAL_MS = 60_000;

/** Lets go of expired pairings and of the tokens their screens never read (actions/pairings.ts). */
export function pairingExpiry(ctx: ServiceContext): Job {
  return every(ctx, 'expiring pairings', PAIRING_EXPIRY_INTERVAL_MS, () => expirePairings(ctx));
}
