import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAIRING_CODE_ALPHABET, type PairingCreated } from '../src/shared/pairing';
import { EXPIRED_PAIRINGS_KEPT_MS } from './actions/pairings';
import { PAIRING_CREATE_RATE } from './routes/pairings';
import { startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';

const START = '2026-11-21T07:00:00.000Z';
const clock = new FakeClock(START);
let service: TestService;
/** Each test pairs from an address of its own, so the limit on new pairings is not shared. */
let nextAddress = 1;

beforeAll(async () => {
  service = await startTestService({ clock });
});
afterAll(() => service.close());

async function newPairing(remoteAddress = `198.51.100.${nextAddress++}`): Promise<PairingCreated> {
  const response = await service.app.inject({ method: 'POST', url: '/pairings', remoteAddress });
  expect(response.statusCode).toBe(201);
  return response.json();
}

function poll(
  pairing: Pick<PairingCreated, 'pairing_id'>,
  secret: string | null,
  remoteAddress = '192.0.2.7',
) {
  return service.app.inject({
    method: 'GET',
    url: `/pairings/${pairing.pairing_id}`,
    remoteAddress,
    headers: secret === null ? {} : { authorization: `Bearer ${secret}` },
  });
}

const claim = (body: object, token?: string | null) => service.call('POST', '/pairings/claim', body, token);

describe('a screen asks to be paired', () => {
  it('gets a code of 6 unambiguous characters, a secret and an expiry 10 minutes away, without a token', async () => {
    const pairing = await newPairing();
    expect(pairing.code).toMatch(new RegExp(`^[${PAIRING_CODE_ALPHABET}]{6}$`));
    expect(pairing.code).not.toMatch(/[01OIL]/);
    expect(pairing.secret.length).toBeGreaterThanOrEqual(40);
    expect(Date.parse(pairing.expires_at) - clock.now().getTime()).toBe(600_000);
    // Stored as a hash only.
    const row = await service.db.kysely
      .selectFrom('pairings')
      .selectAll()
      .where('id', '=', pairing.pairing_id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(pairing.secret);
  });

  it('polls pending with its secret; a wrong, missing or other secret, or an unknown id, is 404', async () => {
    const pairing = await newPairing();
    const other = await newPairing();
    expect((await poll(pairing, pairing.secret)).json()).toEqual({ status: 'pending' });
    for (const secret of [other.secret, 'wbp_wrong', null]) {
      const response = await poll(pairing, secret);
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toMatchObject({
        code: 'not_found',
        message: expect.stringContaining('secret'),
      });
    }
    expect((await poll({ pairing_id: 'pair_nothing' }, pairing.secret)).statusCode).toBe(404);
  });

  it('is refused with 429 and retry-after past the new pairings one address may ask for', async () => {
    const address = '203.0.113.99';
    for (let i = 0; i < PAIRING_CREATE_RATE.burst; i++) await newPairing(address);
    const refused = await service.app.inject({ method: 'POST', url: '/pairings', remoteAddress: address });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().error.code).toBe('rate_limited');
    // Another address is not held back.
    await newPairing('203.0.113.100');
  });
});

describe('an operator claims the code', () => {
  it('creates the device and a token bound to it, which the screen reads exactly once', async () => {
    const playlist = (await service.call('POST', '/playlists', { name: 'Lobby loop', items: [] })).json();
    const pairing = await newPairing();
    // As an operator types it: any case, with a space.
    const typed = `${pairing.code.slice(0, 3).toLowerCase()} ${pairing.code.slice(3)}`;
    const claimed = await claim({ code: typed, name: 'Lobby', playlist_id: playlist.id });
    expect(claimed.statusCode).toBe(201);
    const tag = `screen-${pairing.code.toLowerCase()}`;
    expect(claimed.json()).toMatchObject({ tag, name: 'Lobby', playlist_id: playlist.id, online: false });

    const read = await poll(pairing, pairing.secret);
    expect(read.statusCode).toBe(200);
    const { token } = read.json();
    expect(read.json()).toEqual({ status: 'claimed', device_tag: tag, token: expect.stringMatching(/^wb_/) });

    // Once: the secret is gone from the store.
    const again = await poll(pairing, pairing.secret);
    expect(again.statusCode).toBe(410);
    expect(again.json().error).toMatchObject({
      code: 'gone',
      message: expect.stringContaining('read already'),
    });
    const rows = await service.db.kysely.selectFrom('pairings').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);

    // The screen plays at once with it, as its own device only.
    expect((await service.call('GET', `/devices/${tag}/playlist`, undefined, token)).json().id).toBe(
      playlist.id,
    );
    expect((await service.call('POST', `/devices/${tag}/offline`, {}, token)).statusCode).toBe(200);
    const tokens = (await service.call('GET', '/account/tokens?scope=affiliated')).json();
    expect(tokens).toContainEqual(expect.objectContaining({ scope: 'affiliated', device_tag: tag }));
  });

  it('re-pairs an existing device named by tag, setting what the claim gives', async () => {
    await service.call('POST', '/devices', { tag: 'kitchen', name: 'Old box' });
    const pairing = await newPairing();
    const claimed = await claim({ code: pairing.code, tag: 'kitchen', name: 'Kitchen' });
    expect(claimed.statusCode).toBe(201);
    expect(claimed.json()).toMatchObject({ tag: 'kitchen', name: 'Kitchen' });
    expect((await poll(pairing, pairing.secret)).json()).toMatchObject({
      status: 'claimed',
      device_tag: 'kitchen',
    });
  });

  it('answers 404 with a clear error to an unknown, claimed or expired code, and 400 to one that cannot be', async () => {
    const unknown = await claim({ code: 'ZZZZZZ' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toMatch(
      /no screen is waiting with code ZZZZZZ: it is mistyped, expired/,
    );

    const pairing = await newPairing();
    expect((await claim({ code: pairing.code })).statusCode).toBe(201);
    expect((await claim({ code: pairing.code })).statusCode).toBe(404);

    const malformed = await claim({ code: 'O0I1L' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.details).toEqual([
      { path: 'body.code', message: expect.stringContaining('0, O, 1, I, L') },
    ]);
  });

  it('refuses an unknown playlist with 400 and creates nothing, leaving the code to claim', async () => {
    const pairing = await newPairing();
    const refused = await claim({ code: pairing.code, tag: 'nowhere', playlist_id: 'pl_nothing' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.details[0].path).toBe('body.playlist_id');
    expect((await service.call('GET', '/devices/nowhere')).statusCode).toBe(404);
    expect((await poll(pairing, pairing.secret)).json()).toEqual({ status: 'pending' });
    expect((await claim({ code: pairing.code, tag: 'nowhere' })).statusCode).toBe(201);
  });

  it('needs a full token: affiliated and readonly ones get 403, none 401', async () => {
    const pairing = await newPairing();
    expect((await claim({ code: pairing.code }, await service.tokenOf('affiliated'))).statusCode).toBe(403);
    expect((await claim({ code: pairing.code }, await service.tokenOf('readonly'))).statusCode).toBe(403);
    expect((await claim({ code: pairing.code }, null)).statusCode).toBe(401);
    expect((await poll(pairing, pairing.secret)).json()).toEqual({ status: 'pending' });
  });

  it('gives the token to one of two reads racing each other', async () => {
    const pairing = await newPairing();
    await claim({ code: pairing.code });
    const reads = await Promise.all([poll(pairing, pairing.secret), poll(pairing, pairing.secret)]);
    expect(reads.map((read) => read.statusCode).sort()).toEqual([200, 410]);
  });

  it('lets go of an unread pairing when its device is deleted: 404, and the token with it', async () => {
    const pairing = await newPairing();
    const { tag } = (await claim({ code: pairing.code })).json();
    expect((await service.call('DELETE', `/devices/${tag}`)).statusCode).toBe(204);
    expect((await poll(pairing, pairing.secret)).statusCode).toBe(404);
    const tokens = (await service.call('GET', '/account/tokens')).json() as { device_tag: string | null }[];
    expect(tokens.filter((token) => token.device_tag === tag)).toEqual([]);
  });
});

describe('expiry', () => {
  it('answers 410 after 10 minutes, refuses the code, and forgets the pairing an hour later', async () => {
    const pairing = await newPairing();
    await clock.advance(599_000);
    expect((await poll(pairing, pairing.secret)).json()).toEqual({ status: 'pending' });
    await clock.advance(1_000);
    const expired = await poll(pairing, pairing.secret);
    expect(expired.statusCode).toBe(410);
    expect(expired.json().error.message).toMatch(/expired/);
    expect((await claim({ code: pairing.code })).statusCode).toBe(404);
    // The job (once a minute) removes it once it has been expired for an hour.
    await clock.advance(EXPIRED_PAIRINGS_KEPT_MS + 60_000);
    expect((await poll(pairing, pairing.secret)).statusCode).toBe(404);
  });

  it('deletes the token of a claimed pairing its screen never read, once it expires', async () => {
    const pairing = await newPairing();
    const { tag } = (await claim({ code: pairing.code })).json();
    const boundTo = async () =>
      ((await service.call('GET', '/account/tokens')).json() as { device_tag: string | null }[]).filter(
        (token) => token.device_tag === tag,
      );
    expect(await boundTo()).toHaveLength(1);
    // A claim gives the screen 10 minutes from then to read.
    await clock.advance(600_000 + 60_000);
    expect(await boundTo()).toEqual([]);
    expect((await poll(pairing, pairing.secret)).statusCode).toBe(410);
    const rows = await service.db.kysely.selectFrom('pairings').select('token_secret').execute();
    expect(rows.every((row) => row.token_secret === null)).toBe(true);
  });
});
