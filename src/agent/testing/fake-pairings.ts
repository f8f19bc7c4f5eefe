import type { Fetch } from '../ports';
import type { FakeClock } from './fakes';

/** Every secret starts with it: a test checks that none leaked. */
export const SECRET_PREFIX = 'secret-of-';

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export const apiError = (status: number, message: string, headers: Record<string, string> = {}) =>
  json(status, { error: { code: 'x', message, details: [] } }, headers);

/**
 * The pairing routes as docs/api.md describes them, behind a fetch, with what the tests make them
 * answer; a claimed pairing answers device "kitchen" and its token; other paths go to `rest`.
 */
export class FakePairings {
  readonly calls: { method: string; path: string; auth: string | null; at: number }[] = [];
  private readonly pairings = new Map<string, { code: string; status: 'pending' | 'claimed' | 'expired' }>();
  private next = 0;
  /** The next answers to POST /pairings, before the normal one. */
  createAnswers: (() => Response)[] = [];
  down = false;
  /** Claim every new pairing at once (for tests of what follows a claim). */
  claimAtOnce = false;

  constructor(
    private readonly clock: FakeClock,
    private readonly rest?: Fetch,
  ) {}

  readonly fetch: Fetch = async (url, init) => {
    const path = new URL(url).pathname;
    const method = init?.method ?? 'GET';
    const auth = new Headers(init?.headers).get('authorization');
    this.calls.push({ method, path, auth, at: this.clock.now() });
    if (!path.startsWith('/pairings') && this.rest) return this.rest(url, init);
    if (this.down) throw new TypeError('fetch failed');
    if (method === 'POST' && path === '/pairings') {
      const scripted = this.createAnswers.shift();
      if (scripted) return scripted();
      const id = `pair_${++this.next}`;
      const code = `ABC${'23456789'[this.next % 8]}EF`;
      this.pairings.set(id, { code, status: this.claimAtOnce ? 'claimed' : 'pending' });
      return json(201, {
        pairing_id: id,
        code,
        secret: `${SECRET_PREFIX}${id}-0123456789abcdef`,
        expires_at: new Date(this.clock.now() + 600_000).toISOString(),
      });
    }
    const id = path.split('/')[2] ?? '';
    const pairing = this.pairings.get(id);
    if (!pairing || auth !== `Bearer ${SECRET_PREFIX}${id}-0123456789abcdef`)
      return apiError(404, 'not found');
    if (pairing.status === 'expired') return apiError(410, 'expired');
    if (pairing.status === 'pending') return json(200, { status: 'pending' });
    pairing.status = 'expired';
    return json(200, { status: 'claimed', device_tag: 'kitchen', token: 'token-of-kitchen-0123456789' });
  };

  /** A service that restarted and lost its pairings. */
  forget(): void {
    this.pairings.clear();
  }

  set(index: number, status: 'claimed' | 'expired'): void {
    const pairing = this.pairings.get(`pair_${index}`);
    if (!pairing) throw new Error(`no pairing ${index}`);
    pairing.status = status;
  }

  count(method: string, prefix: string): number {
    return this.calls.filter((call) => call.method === method && call.path.startsWith(prefix)).length;
  }
}
