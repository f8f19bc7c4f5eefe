import { KeyedLimiter, type Millis, type Rate } from './rate-limit';

/**
 * What keeps pairing from being guessed or flooded (docs/api.md, Pairing, where the arithmetic
 * of guessing is). Options of the service (`ServiceConfig.pairing`, --pairings-max,
 * --pairings-per-address, --pairing-guesses-per-minute), so tests can make them small.
 */
export interface PairingLimits {
  /** Pairings live at once, service-wide; when full, a never-polled one makes room for a new one. */
  liveMax: number;
  /** Unclaimed live pairings one source (an IPv4 address, an IPv6 /64) may hold. */
  perSource: number;
  /** Wrong codes sent to POST /pairings/claim, per caller, account, client address, and in all. */
  wrongCodes: { token: Rate; account: Rate; address: Rate; all: Rate };
}

export const DEFAULT_PAIRING_LIMITS: PairingLimits = {
  liveMax: 10_000,
  // A room of screens behind one address pairs a batch at a time; each waits (429) for the next.
  perSource: 20,
  wrongCodes: {
    // An operator mistyping: 10 at once, then one every 30 s.
    token: { burst: 10, perSecond: 1 / 30 },
    account: { burst: 20, perSecond: 1 / 15 },
    address: { burst: 10, perSecond: 1 / 30 },
    // What the whole service lets through, whoever sends it: 100 at once, then one every 2 s.
    all: { burst: 100, perSecond: 1 / 2 },
  },
};

/** Keys kept per limit; a flood of new ones evicts the oldest (the account's and the global limits remain). */
const KEYS = 10_000;

/** Who sends a claim: the token or the signed-in user, its account, and its client network. */
export interface Claimer {
  principal: string;
  account: string;
  address: string;
}

/** The limit a refused claim met, named in its 429. */
export type WrongCodeLimit = 'token' | 'account' | 'address' | 'all';

/**
 * The budgets of wrong codes. A claim takes one from each before the code is looked up, and gives
 * them back when the code was right: only wrong codes cost, and an honest operator's right code
 * after a few typos goes through.
 */
export class WrongCodeBudgets {
  private readonly budgets: Record<WrongCodeLimit, KeyedLimiter>;

  constructor(rates: PairingLimits['wrongCodes'], now?: Millis) {
    this.budgets = {
      token: new KeyedLimiter(rates.token, KEYS, now),
      account: new KeyedLimiter(rates.account, KEYS, now),
      address: new KeyedLimiter(rates.address, KEYS, now),
      all: new KeyedLimiter(rates.all, 1, now),
    };
  }

  private keys(claimer: Claimer): [WrongCodeLimit, string][] {
    return [
      ['token', claimer.principal],
      ['account', claimer.account],
      ['address', claimer.address],
      ['all', 'all'],
    ];
  }

  /** Takes one attempt from every budget, or none: null when taken, else the limit met and the wait. */
  take(claimer: Claimer): { limit: WrongCodeLimit; seconds: number } | null {
    const keys = this.keys(claimer);
    for (const [limit, key] of keys) {
      const seconds = this.budgets[limit].blockedFor(key);
      if (seconds > 0) return { limit, seconds };
    }
    for (const [limit, key] of keys) this.budgets[limit].spend(key);
    return null;
  }

  /** The attempt did not count (its code was right, or it failed for another reason). */
  giveBack(claimer: Claimer): void {
    for (const [limit, key] of this.keys(claimer)) this.budgets[limit].giveBack(key);
  }
}
