import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PairingCreated } from '../src/shared/pairing';
import { HELP, parseCommand } from './cli-options';
import { DEFAULT_PAIRING_LIMITS, type PairingLimits } from './http/pairing-limits';
import { startTestService, type TestService } from './test-support';

/**
 * Pairing against guessing and flooding (issue 27): wrong claim codes are limited per token, per
 * account, per client address and service-wide; one source holds a few live pairings at most,
 * and a full table makes room for a new screen instead of refusing it.
 */

/** Refills so slow (one an hour) that a test's counts are exact. */
const slow = (burst: number) => ({ burst, perSecond: 1 / 3600 });

async function serviceWith(limits: Partial<PairingLimits>): Promise<TestService> {
  return startTestService({ config: { pairing: { ...DEFAULT_PAIRING_LIMITS, ...limits } } });
}

/** A code no screen shows: the alphabet has no 0/1, so nothing else can be waiting under it. */
const wrongCode = (n: number) => `ZZ${String(n % 10_000).padStart(4, '2')}`.replace(/[01]/g, '9');

function claimAs(service: TestService, token: string, code: string, remoteAddress = '192.0.2.1') {
  return service.app.inject({
    method: 'POST',
    url: '/pairings/claim',
    remoteAddress,
    headers: { authorization: `Bearer ${token}` },
    payload: { code },
  });
}

function screen(service: TestService, remoteAddress: string) {
  return service.app.inject({ method: 'POST', url: '/pairings', remoteAddress });
}

function tally(responses: LightMyRequestResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const response of responses) counts[response.statusCode] = (counts[response.statusCode] ?? 0) + 1;
  return counts;
}

function expectRetryAfter(responses: LightMyRequestResponse[]): void {
  for (const response of responses.filter((r) => r.statusCode === 429)) {
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    expect(response.json().error.code).toBe('rate_limited');
  }
}

describe('wrong claim codes', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await serviceWith({
      wrongCodes: { token: slow(5), account: slow(8), address: slow(6), all: slow(1000) },
    });
  });
  afterAll(() => service.close());

  it('are let through per token up to its limit, even all at once, then 429 with retry-after', async () => {
    const { token } = await service.addAccount('guesser');
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => claimAs(service, token, wrongCode(i), `10.9.0.${i + 1}`)),
    );
    expect(tally(responses)).toEqual({ 404: 5, 429: 35 });
    expectRetryAfter(responses);
  });

  it('let an honest operator claim the right code after a few wrong ones, which costs nothing', async () => {
    const { token } = await service.addAccount('typist');
    const pairing: PairingCreated = (await screen(service, '198.51.100.20')).json();
    for (let i = 0; i < 3; i++) expect((await claimAs(service, token, wrongCode(i))).statusCode).toBe(404);
    expect((await claimAs(service, token, pairing.code, '192.0.2.2')).statusCode).toBe(201);
    // The right code spent none of the 5: two more wrong ones still reach the store.
    const after = [];
    for (let i = 0; i < 4; i++) after.push(await claimAs(service, token, wrongCode(i), '192.0.2.3'));
    expect(after.map((r) => r.statusCode)).toEqual([404, 404, 429, 429]);
  });

  it('count every token of one account together', async () => {
    const account = await service.addAccount('many tokens');
    const tokens = [account.token];
    for (let i = 0; i < 3; i++) {
      const made = await account.call('POST', '/account/tokens', { scope: 'full', name: `t${i}` });
      tokens.push(made.json().token);
    }
    const responses = [];
    for (let i = 0; i < 20; i++) {
      const token = tokens[i % tokens.length] as string;
      responses.push(await claimAs(service, token, wrongCode(i), `10.8.0.${i + 1}`));
    }
    expect(tally(responses)).toEqual({ 404: 8, 429: 12 });
    expectRetryAfter(responses);
  });

  it('count one client address, an IPv6 /64 as one, an IPv4-mapped address as its IPv4', async () => {
    const froms = ['2001:db8:7:7::1', '2001:db8:7:7::2', '2001:db8:7:7:abcd::9'];
    const responses = [];
    for (let i = 0; i < 12; i++) {
      // Another account each time: only the address is shared.
      const { token } = await service.addAccount(`neighbour ${i}`);
      responses.push(await claimAs(service, token, wrongCode(i), froms[i % froms.length]));
    }
    expect(tally(responses)).toEqual({ 404: 6, 429: 6 });
    expectRetryAfter(responses);

    const mapped = [];
    for (let i = 0; i < 8; i++) {
      const { token } = await service.addAccount(`mapped ${i}`);
      const from = i % 2 ? '203.0.113.77' : '::ffff:203.0.113.77';
      mapped.push(await claimAs(service, token, wrongCode(i), from));
    }
    expect(tally(mapped)).toEqual({ 404: 6, 429: 2 });
  });
});

describe('wrong claim codes service-wide', () => {
  it('stop at the global limit whatever the accounts and addresses', async () => {
    const service = await serviceWith({
      wrongCodes: { token: slow(5), account: slow(5), address: slow(5), all: slow(12) },
    });
    try {
      const responses = [];
      for (let i = 0; i < 30; i++) {
        const { token } = await service.addAccount(`swarm ${i}`);
        responses.push(await claimAs(service, token, wrongCode(i), `10.7.${i}.1`));
      }
      expect(tally(responses)).toEqual({ 404: 12, 429: 18 });
      expectRetryAfter(responses);
    } finally {
      await service.close();
    }
  });
});

describe('a flood of new pairings', () => {
  const LIVE_MAX = 40;
  const PER_SOURCE = 3;
  let service: TestService;
  beforeAll(async () => {
    service = await serviceWith({ liveMax: LIVE_MAX, perSource: PER_SOURCE });
  });
  afterAll(() => service.close());

  async function liveIds(): Promise<Set<string>> {
    const rows = await service.db.kysely
      .selectFrom('pairings')
      .select('id')
      .where('claimed_at', 'is', null)
      .execute();
    return new Set(rows.map((row) => row.id));
  }

  it('holds a few live pairings per source, fills the table no further, and a fresh screen gets its code', async () => {
    // Honest screens first: each polls its pairing at once, as the agent does.
    const honest: PairingCreated[] = [];
    for (let i = 1; i <= 5; i++) {
      const pairing: PairingCreated = (await screen(service, `198.51.100.${i}`)).json();
      const poll = await service.app.inject({
        method: 'GET',
        url: `/pairings/${pairing.pairing_id}`,
        headers: { authorization: `Bearer ${pairing.secret}` },
      });
      expect(poll.json()).toEqual({ status: 'pending' });
      honest.push(pairing);
    }

    // 30 loopback addresses ask for 6 pairings each, none of them polled.
    const bySource = new Map<string, string[]>();
    const statuses: number[] = [];
    for (let round = 0; round < 6; round++) {
      for (let n = 1; n <= 30; n++) {
        const from = `127.0.0.${n}`;
        const response = await screen(service, from);
        statuses.push(response.statusCode);
        if (response.statusCode === 201) {
          bySource.set(from, [...(bySource.get(from) ?? []), response.json().pairing_id]);
        }
      }
    }
    // The flood itself is answered, never 503: an old pairing makes room for each new one.
    expect(statuses.filter((status) => status === 503)).toEqual([]);

    const live = await liveIds();
    expect(live.size).toBeLessThanOrEqual(LIVE_MAX);
    for (const [, ids] of bySource) {
      expect(ids.filter((id) => live.has(id)).length).toBeLessThanOrEqual(PER_SOURCE);
    }
    // The screens that polled were not let go for the flood.
    for (const pairing of honest) expect(live.has(pairing.pairing_id)).toBe(true);

    // A new screen from an address of its own gets its code during the flood, and keeps it.
    const fresh = await screen(service, '203.0.113.50');
    expect(fresh.statusCode).toBe(201);
    const code: PairingCreated = fresh.json();
    const poll = await service.app.inject({
      method: 'GET',
      url: `/pairings/${code.pairing_id}`,
      headers: { authorization: `Bearer ${code.secret}` },
    });
    expect(poll.json()).toEqual({ status: 'pending' });
    expect((await service.call('POST', '/pairings/claim', { code: code.code })).statusCode).toBe(201);
  });

  it('counts an IPv6 /64 as one source, an IPv4-mapped address as its IPv4', async () => {
    const made: string[] = [];
    for (let i = 1; i <= 10; i++) {
      const response = await screen(service, `2001:db8:5:5::${i.toString(16)}`);
      made.push(response.json().pairing_id);
    }
    for (let i = 1; i <= 6; i++) {
      const response = await screen(service, i % 2 ? '::ffff:198.18.0.9' : '198.18.0.9');
      made.push(response.json().pairing_id);
    }
    const live = await liveIds();
    expect(made.slice(0, 10).filter((id) => live.has(id)).length).toBe(PER_SOURCE);
    expect(made.slice(10).filter((id) => live.has(id)).length).toBe(PER_SOURCE);
  });

  it('keeps the cap when one source asks all at once', async () => {
    const responses = await Promise.all(Array.from({ length: 12 }, () => screen(service, '198.51.100.150')));
    expect(tally(responses)).toEqual({ 201: 12 });
    const live = await liveIds();
    const made = responses.map((response) => response.json().pairing_id as string);
    expect(made.filter((id) => live.has(id)).length).toBe(PER_SOURCE);
    expect(live.size).toBeLessThanOrEqual(LIVE_MAX);
  });

  it('refuses a source whose pairings are all polled with 429 and retry-after, rather than letting go of them', async () => {
    const from = '198.51.100.200';
    for (let i = 0; i < PER_SOURCE; i++) {
      const pairing: PairingCreated = (await screen(service, from)).json();
      await service.app.inject({
        method: 'GET',
        url: `/pairings/${pairing.pairing_id}`,
        headers: { authorization: `Bearer ${pairing.secret}` },
      });
    }
    const refused = await screen(service, from);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().error.message).toMatch(/waiting/);
  });
});

describe('the options', () => {
  it('set the limits from the command line, and name a bad value', () => {
    const command = parseCommand([
      '--pairings-max',
      '500',
      '--pairings-per-address',
      '4',
      '--pairing-guesses-per-minute',
      '6',
    ]);
    expect(command.kind === 'serve' && command.config.pairing).toMatchObject({
      liveMax: 500,
      perSource: 4,
      wrongCodes: { all: { burst: DEFAULT_PAIRING_LIMITS.wrongCodes.all.burst, perSecond: 0.1 } },
    });
    const defaults = parseCommand([]);
    expect(defaults.kind === 'serve' && defaults.config.pairing).toEqual(DEFAULT_PAIRING_LIMITS);
    expect(() => parseCommand(['--pairings-per-address', '0'])).toThrow(
      '--pairings-per-address must be a whole number from 1 to 10000, not "0"',
    );
    expect(HELP).toContain('--pairing-guesses-per-minute');
  });
});
