import ipaddr from 'ipaddr.js';
import type { LRUCache } from 'lru-cache';
import { growingLru } from '../lru';

/** How fast something may happen: `burst` at once, then `perSecond` on average. */
export interface Rate {
  burst: number;
  perSecond: number;
}

/** A monotonic clock in milliseconds; rate limits must not jump with the wall clock. */
export type Millis = () => number;

const monotonic: Millis = () => performance.now();

interface BucketState {
  tokens: number;
  at: number;
}

function refill(state: BucketState, rate: Rate, now: number): void {
  state.tokens = Math.min(rate.burst, state.tokens + ((now - state.at) / 1000) * rate.perSecond);
  state.at = now;
}

function secondsUntilOne(state: BucketState, rate: Rate): number {
  return state.tokens >= 1 ? 0 : Math.ceil((1 - state.tokens) / rate.perSecond);
}

/** A token bucket: each `take` spends one token; tokens come back at the rate, up to the burst. */
export class TokenBucket {
  private readonly state: BucketState;

  constructor(
    private readonly rate: Rate,
    private readonly now: Millis = monotonic,
  ) {
    this.state = { tokens: rate.burst, at: now() };
  }

  /** Spends a token; false (and nothing spent) when there is none. */
  take(): boolean {
    refill(this.state, this.rate, this.now());
    if (this.state.tokens < 1) return false;
    this.state.tokens -= 1;
    return true;
  }
}

/**
 * One token bucket per key (a client address), in a bounded LRU: a flood of new keys evicts the
 * oldest instead of growing the process. An entry expires when its bucket would be full again,
 * which is the same as having none, so idle keys cost nothing.
 */
export class KeyedLimiter {
  private readonly buckets: LRUCache<string, BucketState>;

  constructor(
    private readonly rate: Rate,
    maxKeys: number,
    private readonly now: Millis = monotonic,
  ) {
    this.buckets = growingLru(maxKeys, {
      ttl: Math.ceil((rate.burst / rate.perSecond) * 1000),
      ttlResolution: 0,
      perf: { now },
    });
  }

  /** Seconds until `key` may go on (0: it may now). Spends nothing. */
  blockedFor(key: string): number {
    const state = this.buckets.get(key);
    if (!state) return 0;
    refill(state, this.rate, this.now());
    return secondsUntilOne(state, this.rate);
  }

  /** Forgets what `key` spent: it starts again with a full bucket. */
  forget(key: string): void {
    this.buckets.delete(key);
  }

  /** Spends one of `key`'s tokens (none left: it stays at zero until refilled). */
  spend(key: string): void {
    const now = this.now();
    const state = this.buckets.get(key) ?? { tokens: this.rate.burst, at: now };
    refill(state, this.rate, now);
    state.tokens = Math.max(0, state.tokens - 1);
    // Set again so that the entry's expiry counts from its latest spending.
    this.buckets.set(key, state);
  }

  /**
   * Gives back a token `spend` took: for attempts that count only when they fail (a wrong code),
   * spent before they are tried, so that attempts racing each other cannot all pass a check made
   * before any of them failed, and given back when they turned out not to count.
   */
  giveBack(key: string): void {
    const state = this.buckets.get(key);
    if (!state) return;
    refill(state, this.rate, this.now());
    state.tokens = Math.min(this.rate.burst, state.tokens + 1);
    this.buckets.set(key, state);
  }
}

/**
 * The key a client address is counted under: an IPv4 address as it is (an IPv4-mapped IPv6 one
 * too), an IPv6 address by its /64. One host or one customer's network is given a whole /64, so
 * counting each of its addresses apart would give one attacker 2^64 fresh budgets.
 */
export function clientNetwork(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(':')}::/64`;
}
