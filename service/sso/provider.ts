import * as client from 'openid-client';
import type { Agent, RequestInit as UndiciInit } from 'undici';
import type { ServiceConfig } from '../context';
import type { StoredSso } from '../repositories/account-sso';
import { checkedLookup, checkUrlHost, type HttpAllowPolicy } from '../scripts/destinations';

/** How long discovery, the token request and userinfo may take each. */
const PROVIDER_TIMEOUT_SECONDS = 10;

/** What the service asks of every provider; the account's extra scopes come after. */
const BASE_SCOPES = ['openid', 'profile', 'email'];

/**
 * Whether a URL's host is this machine. Only such an issuer may speak plain http: its traffic
 * never leaves the machine (a provider run beside the service, or the tests'). Any other issuer
 * must be https, as openid-client requires, so that nothing on the way can forge a token.
 */
export function isLoopback(url: URL): boolean {
  const host = url.hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Why an issuer is not usable before asking it anything, or null. */
export function issuerProblem(issuer: string): string | null {
  const url = new URL(issuer);
  if (url.protocol === 'http:' && !isLoopback(url)) {
    return 'must be https (plain http is allowed only for a provider on this machine: localhost, 127.x.x.x, [::1])';
  }
  if (url.search || url.hash) return 'must have no query or fragment';
  return null;
}

/** Where the service may reach a provider: what `reachOf` makes of the service's switches. */
type Reach = Pick<ServiceConfig, 'scriptsHttpAllow' | 'privateDataSources'>;

const widenedRules = new WeakMap<HttpAllowPolicy, HttpAllowPolicy>();
const agents = new WeakMap<HttpAllowPolicy, Agent>();

/**
 * The addresses an account's admin may make the service fetch from as its provider: public ones
 * and what `--scripts-http-allow` lists, and loopback and private ones (an identity provider on
 * the office network) unless the service forbids admins those (`--no-private-data-sources`, for a
 * hosted service whose inner network no customer may probe). Made once per rule, as each rule
 * keeps its own connection pool.
 */
function reachOf(config: Reach): HttpAllowPolicy {
  const base = config.scriptsHttpAllow;
  if (!config.privateDataSources) return base;
  let rule = widenedRules.get(base);
  if (!rule) {
    rule = Object.freeze({ ...base, loopback: true, private: true });
    widenedRules.set(base, rule);
  }
  return rule;
}

/** openid-client's requests (discovery, keys, token, userinfo), each checked against `policy`. */
function fetchWithin(policy: HttpAllowPolicy): client.CustomFetch {
  return async (url, options) => {
    checkUrlHost(policy, new URL(url));
    const undici = await import('undici');
    let agent = agents.get(policy);
    if (!agent) {
      agent = new undici.Agent({ connect: { lookup: checkedLookup(policy) } });
      agents.set(policy, agent);
    }
    const init: UndiciInit = { ...options, body: options.body as UndiciInit['body'], dispatcher: agent };
    return (await undici.fetch(url, init)) as unknown as Response;
  };
}

/**
 * The provider's configuration by OpenID Connect discovery (`/.well-known/openid-configuration`),
 * checked against the issuer: openid-client refuses a document naming another issuer.
 */
export async function discover(sso: Pick<StoredSso, 'issuer' | 'client_id' | 'client_secret'>, reach: Reach) {
  const issuer = new URL(sso.issuer);
  const auth = sso.client_secret ? client.ClientSecretBasic(sso.client_secret) : client.None();
  const customFetch = fetchWithin(reachOf(reach));
  const execute = [
    (config: client.Configuration) => {
      config[client.customFetch] = customFetch;
    },
    ...(issuer.protocol === 'http:' && isLoopback(issuer) ? [client.allowInsecureRequests] : []),
  ];
  return client.discovery(issuer, sso.client_id, undefined, auth, {
    execute,
    timeout: PROVIDER_TIMEOUT_SECONDS,
    [client.customFetch]: customFetch,
  });
}

/** What the browser is sent to, and what its return is checked against. */
export interface Authorization {
  url: URL;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The provider's authorization URL for the code flow with PKCE (S256), a state and a nonce. */
export async function authorizationOf(
  sso: StoredSso,
  config: client.Configuration,
  redirectUri: string,
): Promise<Authorization> {
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: [...new Set([...BASE_SCOPES, ...sso.scopes])].join(' '),
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { url, state, nonce, codeVerifier };
}

/**
 * The person's claims after the provider's return at `currentUrl` (the redirect URI with the
 * provider's query): the code exchanged with the PKCE verifier, the ID token checked (signature,
 * issuer, audience, expiry, nonce), and the userinfo endpoint's claims added where the ID token
 * lacks them (many providers put groups only there).
 */
export async function claimsOf(
  config: client.Configuration,
  currentUrl: URL,
  expected: { state: string; nonce: string; codeVerifier: string },
): Promise<Record<string, unknown>> {
  const tokens = await client.authorizationCodeGrant(config, currentUrl, {
    pkceCodeVerifier: expected.codeVerifier,
    expectedState: expected.state,
    expectedNonce: expected.nonce,
    idTokenExpected: true,
  });
  const idToken = tokens.claims();
  if (!idToken) throw new Error('the provider sent no ID token');
  if (!config.serverMetadata().userinfo_endpoint) return { ...idToken };
  const userinfo = await client.fetchUserInfo(config, tokens.access_token, idToken.sub);
  return { ...userinfo, ...idToken };
}

/**
 * What went wrong at the provider, in words: openid-client wraps the real failure (a refused
 * address, a timeout, a document naming another issuer) in errors of its own, so each cause's
 * message is told, its placeholder ones left out.
 */
export function failureOf(error: unknown): string {
  const messages: string[] = [];
  for (let at = error; at instanceof Error && messages.length < 5; at = at.cause) {
    if (at.message && at.message !== 'something went wrong') messages.push(at.message);
  }
  return messages.join(': ') || String(error);
}
