import { apiErrorSchema } from '../shared/api-error';
import type { Setup } from '../shared/bridge';
import { describeIssues } from '../shared/issues';
import { pairingCreatedSchema, pairingStatusSchema, type PairingCreated } from '../shared/pairing';
import { backoffDelay } from './backoff';
import type { ClientConfig, Credential } from './config';
import { Discovery } from './discovery';
import type { Clock, Fetch, Logger, ServiceBrowser, TimerHandle } from './ports';

/** Between two asks whether the code was claimed: a claimed screen plays within about this. */
export const POLL_MS = 2000;
const REQUEST_TIMEOUT_MS = 15_000;
/** A 429 without a retry-after waits this long. */
const RATE_LIMITED_MS = 60_000;

/**
 * The console's page that claims a code, with the code filled in: what the screen's QR code
 * holds. The console, served by the service at its root, turns this address into its Screens
 * page with the pair dialog open (console/src/pages/screens/pair-link.ts); every screen shows
 * this form of it, so it stays as it is.
 */
export function claimUrl(server: string, code: string): string {
  return `${server}/#/pair?code=${code}`;
}

export interface PairingDeps {
  fetch: Fetch;
  clock: Clock;
  random: () => number;
  log: Logger;
}

/** One answer of the service, whatever its status. */
interface Answer {
  status: number;
  json: unknown;
  /** The wait a `retry-after` header asks for. */
  retryAfterMs: number | null;
}

/** A failure that says how long to wait before the next try. */
class RetryLater extends Error {
  constructor(
    readonly ms: number,
    message: string,
  ) {
    super(message);
  }
}

function reasonOf(answer: Answer): string {
  const error = apiErrorSchema.safeParse(answer.json);
  return `${answer.status} ${error.success ? error.data.error.message : 'without an error body'}`;
}

/**
 * Pairs this screen with a service by a code (docs/api.md, Pairing): asks for a pairing, shows
 * its code, and asks with the pairing's secret every 2 s whether an operator claimed it. An
 * expired code (410), or a pairing the service no longer knows (404), is replaced by a new one at
 * once; failures back off (1 s doubling to 60 s, jittered), a 429 waits what its retry-after
 * says. Ends with the device's credential, which the service gives once. The secret and the
 * token never reach the renderer or the log.
 */
export class Pairing {
  private timer: TimerHandle | null = null;
  private wake: (() => void) | null = null;
  private stopped = false;

  constructor(
    private readonly deps: PairingDeps,
    private readonly server: string,
    private readonly show: (setup: Setup) => void,
  ) {}

  async run(): Promise<Credential> {
    let pairing: PairingCreated | null = null;
    let failures = 0;
    this.show({ kind: 'contacting', service_url: this.server, problem: null });
    for (;;) {
      let waitMs = POLL_MS;
      try {
        if (!pairing) {
          pairing = await this.create();
          this.showCode(pairing);
        }
        // Expiry is the service's word (410), not this machine's clock, which may be off.
        const status = await this.poll(pairing);
        if (status === 'pending') {
          failures = 0;
        } else if (status === 'expired') {
          pairing = null;
          waitMs = 0;
        } else if (status === 'unknown') {
          pairing = null;
          waitMs = backoffDelay(failures++, this.deps.random);
        } else {
          this.deps.log.info(`paired: this screen is device "${status.tag}" of ${this.server}`);
          return status;
        }
      } catch (error) {
        if (this.stopped) throw error;
        const message = (error as Error).message;
        waitMs = error instanceof RetryLater ? error.ms : backoffDelay(failures++, this.deps.random);
        this.deps.log.warn(`pairing: ${message}; trying again in ${Math.round(waitMs / 1000)} s`);
        if (!pairing) this.show({ kind: 'contacting', service_url: this.server, problem: message });
      }
      await this.sleep(waitMs);
    }
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
    this.wake?.();
  }

  private showCode(pairing: PairingCreated): void {
    this.deps.log.info(
      `pairing code ${pairing.code}: claim it in the console (${claimUrl(this.server, pairing.code)}) or with POST /pairings/claim; it expires at ${pairing.expires_at}`,
    );
    this.show({
      kind: 'pairing',
      code: pairing.code,
      service_url: this.server,
      claim_url: claimUrl(this.server, pairing.code),
      expires_at: pairing.expires_at,
    });
  }

  private async create(): Promise<PairingCreated> {
    const answer = await this.request('POST', '/pairings');
    if (answer.status === 429) {
      throw new RetryLater(answer.retryAfterMs ?? RATE_LIMITED_MS, `asking for a code: ${reasonOf(answer)}`);
    }
    if (answer.status !== 201) throw new Error(`asking for a code: ${reasonOf(answer)}`);
    const parsed = pairingCreatedSchema.safeParse(answer.json);
    if (!parsed.success) {
      throw new Error(`the new pairing does not fit the contract: ${describeIssues(parsed.error)}`);
    }
    return parsed.data;
  }

  /** Claimed (the credential), still pending, or gone: expired, or unknown to the service (404). */
  private async poll(pairing: PairingCreated): Promise<Credential | 'pending' | 'expired' | 'unknown'> {
    const path = `/pairings/${encodeURIComponent(pairing.pairing_id)}`;
    const answer = await this.request('GET', path, pairing.secret);
    if (answer.status === 410 || answer.status === 404) {
      const gone = answer.status === 410 ? 'expired' : 'unknown';
      this.deps.log.info(
        `pairing code ${pairing.code} ${gone === 'expired' ? 'expired' : 'is unknown to the service'}; asking for a new one`,
      );
      return gone;
    }
    if (answer.status === 429) {
      throw new RetryLater(
        answer.retryAfterMs ?? RATE_LIMITED_MS,
        `asking about the code: ${reasonOf(answer)}`,
      );
    }
    if (answer.status !== 200) throw new Error(`asking about the code: ${reasonOf(answer)}`);
    const parsed = pairingStatusSchema.safeParse(answer.json);
    if (!parsed.success) {
      throw new Error(`the pairing's status does not fit the contract: ${describeIssues(parsed.error)}`);
    }
    const status = parsed.data;
    if (status.status === 'pending') return 'pending';
    return { server: this.server, token: status.token, tag: status.device_tag };
  }

  private async request(method: string, path: string, secret?: string): Promise<Answer> {
    let response: Response;
    try {
      response = await this.deps.fetch(`${this.server}${path}`, {
        method,
        headers: secret ? { authorization: `Bearer ${secret}` } : {},
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new Error(`the service cannot be reached (${(error as Error).message})`, { cause: error });
    }
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON: reasonOf says the answer had no error body.
    }
    const retryAfter = Number(response.headers.get('retry-after'));
    if (this.stopped) throw new Error('stopped');
    return {
      status: response.status,
      json,
      retryAfterMs: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : null,
    };
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.reject(new Error('stopped'));
    return new Promise<void>((resolve) => {
      this.wake = resolve;
      this.timer = this.deps.clock.setTimeout(resolve, ms);
    }).then(() => {
      this.wake = null;
      if (this.stopped) throw new Error('stopped');
    });
  }
}

export interface EnrolmentDeps extends PairingDeps {
  browser?: ServiceBrowser;
  saveCredential?: (credential: Credential) => Promise<void>;
}

/**
 * A client without a credential: finds its service (the configured one, else on the local
 * network: discovery.ts), pairs with it, and keeps the credential where the client keeps its
 * token, so the next start needs no pairing.
 */
export class Enrolment {
  private discovery: Discovery | null = null;
  private pairing: Pairing | null = null;
  private found: string | null = null;
  private stopped = false;

  constructor(
    private readonly deps: EnrolmentDeps,
    private readonly config: Pick<ClientConfig, 'server'>,
    private readonly show: (setup: Setup) => void,
  ) {}

  async run(): Promise<Credential> {
    const { browser, saveCredential } = this.deps;
    if (!saveCredential)
      throw new Error('this client cannot keep a credential, so it cannot pair: give it a token');
    let server = this.config.server;
    if (!server) {
      if (!browser)
        throw new Error('no service configured, and this client cannot look for one: give it a server');
      this.discovery = new Discovery({ ...this.deps, browser }, (services) =>
        this.show({ kind: 'discovering', services }),
      );
      server = await this.discovery.find();
      this.found = server;
    }
    if (this.stopped) throw new Error('stopped');
    this.pairing = new Pairing(this.deps, server, this.show);
    const credential = await this.pairing.run();
    // The service gave the token once: losing it here means pairing again after a restart, not now.
    await saveCredential(credential).catch((error: unknown) =>
      this.deps.log.error(
        `the new credential could not be kept (${String(error)}): this screen plays now, but must be paired again after a restart`,
      ),
    );
    return credential;
  }

  /** The service being paired with: the configured one, or the one found; null while looking. */
  get server(): string | null {
    return this.config.server ?? this.found;
  }

  /** The operator picked one of several services found. */
  choose(id: string): void {
    this.discovery?.choose(id);
  }

  stop(): void {
    this.stopped = true;
    this.discovery?.stop();
    this.pairing?.stop();
  }
}
