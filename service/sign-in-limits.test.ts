import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser } from './actions/users';
import {
  SIGN_IN_ADDRESS_RATE,
  SIGN_IN_LOGIN_ADDRESS_RATE,
  SIGN_IN_LOGIN_RATE,
  SIGN_IN_SLOW_DOWN_MS,
} from './routes/session';
import { startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';

// Wrong passwords must slow an attacker down without locking the owner out: they are refused per
// login and address, and per address, never for the login from everywhere (docs/api/users.md).
const clock = new FakeClock('2026-11-21T07:00:00.000Z');
let service: TestService;
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  service = await startTestService({ clock });
  for (const login of ['owner', 'target', 'slow', 'v6']) {
    await createUser(service.db, { login, password: PASSWORD, role: 'admin' });
  }
});
afterAll(() => service.close());

function signIn(login: string, password: string, from: string): Promise<LightMyRequestResponse> {
  return service.app.inject({
    method: 'POST',
    url: '/session',
    remoteAddress: from,
    payload: { login, password },
  });
}

/**
 * The answer to a request that may wait on the service's clock (the slow-down), and how long it
 * waited on that clock: none when answered before it set a timer; otherwise the clock is moved
 * on, `step` ms at a time, until the answer comes.
 */
async function settle(
  pending: Promise<LightMyRequestResponse>,
  step = 100,
): Promise<{ response: LightMyRequestResponse; waited: number }> {
  const timers = clock.pending;
  let response: LightMyRequestResponse | null = null;
  void pending.then((answer) => (response = answer));
  // Real time for the password check (scrypt runs on the thread pool): answered, or waiting on the clock.
  await vi.waitFor(() => expect(response !== null || clock.pending !== timers).toBe(true), {
    timeout: 10_000,
    interval: 1,
  });
  let waited = 0;
  while (!response) {
    await clock.advance(step);
    waited += step;
    // Its timer has run: nothing on the clock holds the answer back any more.
    if (clock.pending === timers) return { response: await pending, waited };
  }
  return { response, waited };
}

/** How many answers had each status. */
function tally(responses: LightMyRequestResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { statusCode } of responses) counts[statusCode] = (counts[statusCode] ?? 0) + 1;
  return counts;
}

describe('failed sign-ins', () => {
  it('never keep the owner out: guesses from many addresses, then the right password from a fresh one', async () => {
    const guesses: LightMyRequestResponse[] = [];
    // 10 addresses, 2 guesses each: past every count of the login's.
    for (let host = 1; host <= 10; host++) {
      for (let guess = 0; guess < 2; guess++) {
        const guess$ = signIn('owner', `wrong guess ${host}.${guess}`, `203.0.113.${host}`);
        guesses.push((await settle(guess$, 1000)).response);
      }
    }
    expect(tally(guesses)).toEqual({ 401: 20 });
    const owner = await signIn('owner', PASSWORD, '198.51.100.200');
    expect(owner.statusCode).toBe(200);
    expect(owner.cookies.some((cookie) => cookie.name === 'wb_session')).toBe(true);
  }, 60_000);

  it('refuse one address after its guesses at one login, with Retry-After, while others still sign in', async () => {
    const from = '192.0.2.10';
    const answers: LightMyRequestResponse[] = [];
    for (let i = 0; i < 12; i++) answers.push(await signIn('target', `wrong ${i}`, from));
    const burst = SIGN_IN_LOGIN_ADDRESS_RATE.burst;
    expect(tally(answers)).toEqual({ 401: burst, 429: 12 - burst });
    // Refused before the password is checked: the right one is refused too, from there.
    const refused = await signIn('target', PASSWORD, from);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The owner, elsewhere, is not.
    expect((await signIn('target', PASSWORD, '192.0.2.11')).statusCode).toBe(200);
  });

  it('refuse one address after its guesses across logins', async () => {
    const from = '192.0.2.20';
    const answers: LightMyRequestResponse[] = [];
    for (let i = 0; i < 15; i++) answers.push(await signIn(`nobody-${i}`, 'wrong password', from));
    const burst = SIGN_IN_ADDRESS_RATE.burst;
    expect(tally(answers)).toEqual({ 401: burst, 429: 15 - burst });
  });

  it('count an IPv6 network as one address: its /64', async () => {
    const answers: LightMyRequestResponse[] = [];
    for (let i = 1; i <= 12; i++)
      answers.push(await signIn('v6', `wrong ${i}`, `2001:db8:1:2::${i.toString(16)}`));
    const burst = SIGN_IN_LOGIN_ADDRESS_RATE.burst;
    expect(tally(answers)).toEqual({ 401: burst, 429: 12 - burst });
    expect((await signIn('v6', PASSWORD, '2001:db8:1:3::1')).statusCode).toBe(200);
  });

  it('slow the answers to wrong passwords for a login guessed at from everywhere, not the right one', async () => {
    const waits: number[] = [];
    for (let host = 1; host <= SIGN_IN_LOGIN_RATE.burst + 3; host++) {
      const { response, waited } = await settle(signIn('slow', `wrong ${host}`, `198.18.0.${host}`));
      expect(response.statusCode).toBe(401);
      waits.push(waited);
    }
    // The first are answered at once; past the login's count, each only once the slow-down passed.
    const burst = SIGN_IN_LOGIN_RATE.burst;
    expect(waits.slice(0, burst)).toEqual(Array(burst).fill(0));
    expect(waits.slice(burst).every((waited) => waited >= SIGN_IN_SLOW_DOWN_MS)).toBe(true);
    // The right password, from a fresh address, is answered at once: the clock stands still.
    const before = clock.now().getTime();
    expect((await signIn('slow', PASSWORD, '198.18.1.2')).statusCode).toBe(200);
    expect(clock.now().getTime()).toBe(before);
  }, 60_000);
});
