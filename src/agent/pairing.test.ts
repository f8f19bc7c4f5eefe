import { beforeEach, describe, expect, it } from 'vitest';
import type { Setup } from '../shared/bridge';
import type { Credential } from './config';
import { SETTLE_MS } from './discovery';
import { claimUrl, Enrolment, Pairing, POLL_MS } from './pairing';
import { apiError, FakePairings, json, SECRET_PREFIX } from './testing/fake-pairings';
import { FakeClock, recordingLogger } from './testing/fakes';
import { FakeBrowser } from './testing/fake-browser';

const SERVER = 'http://wall.test:8787';

let clock: FakeClock;
let service: FakePairings;
let log: ReturnType<typeof recordingLogger>;
let shown: Setup[];

beforeEach(() => {
  clock = new FakeClock();
  clock.current = Date.parse('2026-11-21T08:00:00Z');
  service = new FakePairings(clock);
  log = recordingLogger();
  shown = [];
});

const deps = () => ({ fetch: service.fetch, clock, random: () => 0.5, log });
const last = () => shown.at(-1);

/** Runs a pairing; `result` says how it ended, once it has. */
function startPairing(): { pairing: Pairing; result: { credential?: Credential; error?: Error } } {
  const pairing = new Pairing(deps(), SERVER, (setup) => shown.push(setup));
  const result: { credential?: Credential; error?: Error } = {};
  pairing.run().then(
    (credential) => (result.credential = credential),
    (error: Error) => (result.error = error),
  );
  return { pairing, result };
}

describe('pairing', () => {
  it('shows a code with the claim page, polls with its secret every 2 s, and ends with the credential', async () => {
    const { result } = startPairing();
    await clock.advance(0);
    expect(last()).toEqual({
      kind: 'pairing',
      code: 'ABC3EF',
      service_url: SERVER,
      claim_url: `${SERVER}/#/pair?code=ABC3EF`,
      expires_at: '2026-11-21T08:10:00.000Z',
    });
    await clock.advance(3 * POLL_MS);
    const polls = service.calls.filter((call) => call.method === 'GET');
    expect(polls.map((call) => call.at - polls[0]!.at)).toEqual([0, 2000, 4000, 6000]);
    expect(polls.every((call) => call.auth === `Bearer ${SECRET_PREFIX}pair_1-0123456789abcdef`)).toBe(true);

    service.set(1, 'claimed');
    await clock.advance(POLL_MS);
    expect(result.credential).toEqual({
      server: SERVER,
      token: 'token-of-kitchen-0123456789',
      tag: 'kitchen',
    });
    // Neither the secret nor the token reaches the screen or the log.
    const said = JSON.stringify(shown) + log.lines.join('\n');
    expect(said).not.toContain(SECRET_PREFIX);
    expect(said).not.toContain('token-of-kitchen');
    await clock.advance(60_000);
    expect(service.count('GET', '/pairings')).toBe(5);
  });

  it('asks for a new code at once when the service says the old one expired (410)', async () => {
    startPairing();
    await clock.advance(0);
    service.set(1, 'expired');
    await clock.advance(POLL_MS);
    expect(service.count('POST', '/pairings')).toBe(2);
    expect(last()).toMatchObject({ kind: 'pairing', code: 'ABC4EF' });
  });

  it('replaces a pairing the service does not know (404) after a backoff, not in a tight loop', async () => {
    startPairing();
    await clock.advance(0);
    service.forget();
    await clock.advance(POLL_MS);
    // The 404, then 0.75 s of backoff (jittered halfway) before the new pairing.
    await clock.advance(700);
    expect(service.count('POST', '/pairings')).toBe(1);
    await clock.advance(50);
    expect(service.count('POST', '/pairings')).toBe(2);
    expect(last()).toMatchObject({ kind: 'pairing', code: 'ABC4EF' });
  });

  it('waits what a 429 asks before asking for a code again, and says why it has none', async () => {
    service.createAnswers = [
      () => apiError(429, 'too many pairings from this address', { 'retry-after': '30' }),
    ];
    startPairing();
    await clock.advance(0);
    expect(last()).toEqual({
      kind: 'contacting',
      service_url: SERVER,
      problem: 'asking for a code: 429 too many pairings from this address',
    });
    await clock.advance(29_000);
    expect(service.count('POST', '/pairings')).toBe(1);
    await clock.advance(1000);
    expect(service.count('POST', '/pairings')).toBe(2);
    expect(last()).toMatchObject({ kind: 'pairing' });
  });

  it('backs off while the service cannot be reached, keeping the code it shows', async () => {
    startPairing();
    await clock.advance(0);
    service.down = true;
    service.calls.length = 0;
    await clock.advance(POLL_MS + 60_000);
    // 2 s, then 0.75, 1.5, 3, 6, 12, 24 s (jittered halfway) and more: not every 2 s.
    expect(service.calls.length).toBeLessThan(10);
    expect(last()).toMatchObject({ kind: 'pairing', code: 'ABC3EF' });
    service.down = false;
    service.set(1, 'claimed');
    await clock.advance(60_000);
    expect(service.count('POST', '/pairings')).toBe(0);
  });

  it('takes a new pairing that does not fit the contract for a failure', async () => {
    service.createAnswers = [() => json(201, { pairing_id: 'p', code: 'lower1', secret: 's' })];
    startPairing();
    await clock.advance(0);
    expect(last()).toMatchObject({
      kind: 'contacting',
      problem: expect.stringMatching(/does not fit the contract/),
    });
  });

  it('stops when told, asking nothing more', async () => {
    const { pairing, result } = startPairing();
    await clock.advance(0);
    pairing.stop();
    await clock.advance(0);
    expect(result.error?.message).toBe('stopped');
    const calls = service.calls.length;
    await clock.advance(60_000);
    expect(service.calls.length).toBe(calls);
  });

  it('builds the claim address the console will serve', () => {
    expect(claimUrl('https://wall.example/api', 'ABC3EF')).toBe(
      'https://wall.example/api/#/pair?code=ABC3EF',
    );
  });
});

describe('enrolment', () => {
  it('finds the only service on the network, pairs with it and keeps the credential before using it', async () => {
    const browser = new FakeBrowser();
    const saved: Credential[] = [];
    const enrolment = new Enrolment(
      { ...deps(), browser, saveCredential: async (credential) => void saved.push(credential) },
      { server: null },
      (setup) => shown.push(setup),
    );
    let credential: Credential | undefined;
    void enrolment.run().then((value) => (credential = value));
    await clock.advance(0);
    expect(last()).toEqual({ kind: 'discovering', services: [] });
    expect(enrolment.server).toBeNull();
    browser.announce([{ id: 'a.local', name: 'Wallboard office', url: SERVER }]);
    await clock.advance(SETTLE_MS);
    expect(browser.running).toBe(false);
    expect(enrolment.server).toBe(SERVER);
    expect(last()).toMatchObject({ kind: 'pairing', service_url: SERVER });
    service.set(1, 'claimed');
    await clock.advance(POLL_MS);
    expect(saved).toEqual([{ server: SERVER, token: 'token-of-kitchen-0123456789', tag: 'kitchen' }]);
    expect(credential).toEqual(saved[0]);
  });

  it('plays on when the credential cannot be kept, saying it must be paired again after a restart', async () => {
    const enrolment = new Enrolment(
      { ...deps(), saveCredential: () => Promise.reject(new Error('disk full')) },
      { server: SERVER },
      (setup) => shown.push(setup),
    );
    let credential: Credential | undefined;
    void enrolment.run().then((value) => (credential = value));
    await clock.advance(0);
    service.set(1, 'claimed');
    await clock.advance(POLL_MS);
    expect(credential?.tag).toBe('kitchen');
    expect(log.lines.join('\n')).toMatch(
      /could not be kept \(Error: disk full\).*paired again after a restart/,
    );
  });

  it('cannot pair without a way to keep the credential, nor look without a browser', async () => {
    await expect(new Enrolment(deps(), { server: SERVER }, () => undefined).run()).rejects.toThrow(
      /cannot keep a credential/,
    );
    await expect(
      new Enrolment(
        { ...deps(), saveCredential: async () => undefined },
        { server: null },
        () => undefined,
      ).run(),
    ).rejects.toThrow(/cannot look for one/);
  });
});
