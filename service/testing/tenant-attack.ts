// Two accounts on one service, one of them attacking (issue: one tenant cannot hurt another): the
// victim's screen, operator, scripts and new screens are measured while the attacker's scripts eat
// memory and loop, its uploads run into its quota, and it floods pairing and guesses the victim's
// password from many addresses. service/tenant-attack.test.ts holds the victim to its bounds;
// bench/tenants.ts prints the same figures beside a quiet run.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { AccountRepository } from '../accounts/accounts';
import { DEFAULT_PAIRING_LIMITS } from '../http/pairing-limits';
import { ADMIN_SECRET, startTestService, type TestService } from '../test-support';
import { multipart } from './multipart';
import { solidPng } from './png';
import { clientsOf, hello, seed } from './realtime-clients';

/** What the victim saw, each a list of milliseconds. */
export interface VictimFigures {
  /** From a metric write sent until its screen has it. */
  screenMs: number[];
  /** Sign-ins of its operator, from its own address: time to the answer. */
  signInMs: number[];
  /** Sign-ins of its operator that were refused. */
  signInRefused: number;
  /** Between the starts of its script's runs, less the script's interval. */
  scriptLateMs: number[];
  /** New screens asking for a pairing code, polling it and being claimed: time to the claim. */
  pairingMs: number[];
  /** New screens refused a code, or their claim. */
  pairingRefused: number;
}

/** What the attacker's requests got, by status. */
export type AttackCounts = Record<string, Record<number, number>>;

export interface ScenarioOptions {
  attack: boolean;
  seconds: number;
  /** The attacker's endless scripts' timeout (the victim's runs may wait about one). */
  attackTimeoutSeconds: number;
  /**
   * The attacker's media quota, 4 MB unless given: its uploads (256 KB each) run into it within
   * the run. A test on a busy machine, where an upload may take seconds, gives a smaller one.
   */
  attackerMediaMb?: number;
}

const VICTIM_LOGIN = 'ops@victim.example';
const VICTIM_PASSWORD = 'victim password 0123';
/** Where the victim's operator works from. */
const VICTIM_ADDRESS = '127.1.0.1';
const SCRIPT_INTERVAL_MS = 1000;
/** Live pairings at most: the attacker's flood fills them within the run. */
const LIVE_PAIRINGS = 300;
/** The characters of a pairing code. */
const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/** The victim's pace on the wall clock: the scenario measures what it sees over real seconds. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls `step` again and again, `width` at a time, until `until`. */
async function loop(width: number, until: number, step: (n: number) => Promise<void>): Promise<void> {
  let n = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (Date.now() < until) await step(n++);
    }),
  );
}

export async function runTenantScenario(options: ScenarioOptions): Promise<{
  victim: VictimFigures;
  attacker: AttackCounts;
}> {
  const service = await startTestService({
    // Clients' addresses are taken from X-Forwarded-For; a table of live pairings the flood fills.
    config: { trustProxy: ['loopback'], pairing: { ...DEFAULT_PAIRING_LIMITS, liveMax: LIVE_PAIRINGS } },
  });
  try {
    return await scenario(service, options);
  } finally {
    await service.close();
  }
}

async function scenario(service: TestService, options: ScenarioOptions) {
  await service.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(service.app.server.address() as AddressInfo).port}`;
  const send = async (method: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(body === undefined || Buffer.isBuffer(body) ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body:
        body === undefined ? undefined : Buffer.isBuffer(body) ? new Uint8Array(body) : JSON.stringify(body),
    });
    await response.arrayBuffer();
    return response;
  };

  // The victim: the default account, its screen `lobby` showing flow `cpu`, an operator, a script.
  await seed(service);
  const admin = { authorization: `Bearer ${ADMIN_SECRET}` };
  await send('POST', '/users', { login: VICTIM_LOGIN, password: VICTIM_PASSWORD, role: 'admin' }, admin);
  const created = await fetch(`${base}/scripts`, {
    method: 'POST',
    headers: { ...admin, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'victim', code: 'return 1', interval: `${SCRIPT_INTERVAL_MS}ms` }),
  });
  const victimScript = ((await created.json()) as { id: string }).id;
  const clients = clientsOf(() => base);
  const screen = clients.open();
  await hello(screen, null);

  const attacker = await service.addAccount('attacker');
  await new AccountRepository(service.db).update(attacker.id, {
    limits: { media_bytes: (options.attackerMediaMb ?? 4) * 1024 * 1024 },
  });
  const counts: AttackCounts = {};
  const count = (what: string, status: number) => {
    const byStatus = (counts[what] ??= {});
    byStatus[status] = (byStatus[status] ?? 0) + 1;
  };
  const attackerAuth = { authorization: `Bearer ${attacker.token}` };

  const started = Date.now();
  const until = started + options.seconds * 1000;
  const victim: VictimFigures = {
    screenMs: [],
    signInMs: [],
    signInRefused: 0,
    scriptLateMs: [],
    pairingMs: [],
    pairingRefused: 0,
  };

  const attacks = options.attack ? attack() : [];
  function attack(): Promise<void>[] {
    const scripts = async () => {
      const code = [
        'while (true) {}',
        'const kept = []; while (true) kept.push(new ArrayBuffer(1024 * 1024));',
        'const kept = []; while (true) kept.push({ at: Date.now() });',
      ];
      for (let n = 0; n < 8; n += 1) {
        const response = await send(
          'POST',
          '/scripts',
          {
            name: `attack ${n}`,
            code: code[n % code.length],
            interval: '1s',
            timeout_seconds: options.attackTimeoutSeconds,
          },
          attackerAuth,
        );
        count('scripts', response.status);
      }
    };
    const uploads = loop(2, until, async (n) => {
      // A PNG's signature and noise: the library takes it as an image, and it does not compress.
      const content = Buffer.concat([solidPng(1, 1), randomBytes(256 * 1024)]);
      const { payload, headers } = multipart([
        { name: 'file', filename: `flood-${n}.png`, type: 'image/png', content },
      ]);
      count('uploads', (await send('POST', '/media', payload, { ...attackerAuth, ...headers })).status);
    });
    const pairings = loop(4, until, async (n) => {
      const from = `127.2.${(n >> 8) & 255}.${n & 255}`;
      count('pairings', (await send('POST', '/pairings', {}, { 'x-forwarded-for': from })).status);
    });
    const guesses = loop(4, until, async (n) => {
      const from = n % 2 === 0 ? '127.3.0.1' : `127.4.${(n >> 8) & 255}.${n & 255}`;
      const body = { login: VICTIM_LOGIN, password: `guess ${n} of many` };
      count('sign-in guesses', (await send('POST', '/session', body, { 'x-forwarded-for': from })).status);
    });
    const claims = loop(2, until, async () => {
      const code = Array.from(randomBytes(6), (byte) => CODE_ALPHABET[byte % CODE_ALPHABET.length]).join('');
      const headers = { ...attackerAuth, 'x-forwarded-for': '127.5.0.1' };
      count('claim guesses', (await send('POST', '/pairings/claim', { code }, headers)).status);
    });
    return [scripts(), uploads, pairings, guesses, claims];
  }

  // The victim's screen: each write's value, timed until the screen has it.
  const sent = new Map<number, number>();
  screen.on('event', (event) => {
    if (event.type !== 'metrics.changed') return;
    const value = (event.data as { value?: unknown }).value;
    const at = typeof value === 'number' ? sent.get(value) : undefined;
    if (at !== undefined) victim.screenMs.push(performance.now() - at);
  });
  const screenWrites = loop(1, until, async (n) => {
    sent.set(n, performance.now());
    await send('PUT', '/flows/cpu/metrics', { value: n }, admin);
    await sleep(100);
  });
  const signIns = loop(1, until, async () => {
    const at = performance.now();
    const response = await send(
      'POST',
      '/session',
      { login: VICTIM_LOGIN, password: VICTIM_PASSWORD },
      { 'x-forwarded-for': VICTIM_ADDRESS },
    );
    victim.signInMs.push(performance.now() - at);
    if (response.status !== 200) victim.signInRefused += 1;
    await sleep(500);
  });
  // New screens of the victim's: each asks for a code, polls it as the agent does, and is claimed.
  const newScreens = loop(1, until, async (n) => {
    const at = performance.now();
    const asked = await fetch(`${base}/pairings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `127.1.1.${n % 250}` },
      body: '{}',
    });
    const pairing = (await asked.json()) as { pairing_id?: string; code?: string; secret?: string };
    const polled = await send('GET', `/pairings/${pairing.pairing_id}`, undefined, {
      authorization: `Bearer ${pairing.secret}`,
    });
    const claimed = await send(
      'POST',
      '/pairings/claim',
      { code: pairing.code, name: `New ${n}` },
      { ...admin, 'x-forwarded-for': VICTIM_ADDRESS },
    );
    victim.pairingMs.push(performance.now() - at);
    if (asked.status !== 201 || polled.status !== 200 || claimed.status !== 201) victim.pairingRefused += 1;
    await sleep(1000);
  });
  await Promise.all([...attacks, screenWrites, signIns, newScreens]);
  // The last writes get half a second to reach the screen: one that has not by then counts as not arrived.
  await sleep(500);
  clients.closeAll();

  const runs = await fetch(`${base}/scripts/${victimScript}/runs`, { headers: admin });
  const starts = ((await runs.json()) as { started_at: string }[])
    .map((run) => Date.parse(run.started_at))
    .filter((at) => at >= started)
    .sort((a, b) => a - b);
  for (let i = 1; i < starts.length; i += 1) {
    victim.scriptLateMs.push(Math.max(0, (starts[i] ?? 0) - (starts[i - 1] ?? 0) - SCRIPT_INTERVAL_MS));
  }
  return { victim, attacker: counts };
}
