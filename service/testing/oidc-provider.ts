import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type ProviderContext } from 'oidc-provider';

/** A person the provider signs in, by `sub`, with the claims it sends about them. */
export interface TestPerson {
  preferred_username?: string;
  email?: string;
  groups?: string[];
  roles?: string[];
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The people, by `sub` (what the login form takes): change them between sign-ins. */
  people: Map<string, TestPerson>;
  /**
   * Drives the provider's sign-in form over HTTP, from the authorization URL the service
   * redirected to, as `sub`: the URL the provider sends the browser back to (the redirect URI).
   */
  signIn(authorizationUrl: string, sub: string): Promise<URL>;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (oidc-provider) on loopback for the single sign-on tests: one
 * confidential client that must use PKCE, claims `groups` and `roles` under the scope `groups`,
 * and the library's own login form (any password), which the unit tests post over HTTP and the
 * e2e fills in Chromium. Consent is granted without asking.
 */
export async function startOidcProvider(redirectUris: string[]): Promise<TestProvider> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'wallboard';
  const clientSecret = randomBytes(24).toString('base64url');
  const people = new Map<string, TestPerson>();
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    pkce: { required: () => true },
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test', alg: 'RS256', use: 'sig' }] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    // Set so that the library does not warn of its defaults; a test is over long before.
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 600,
      Interaction: 600,
      Grant: 600,
      Session: 600,
    },
    scopes: ['openid', 'profile', 'email', 'groups'],
    claims: {
      openid: ['sub'],
      profile: ['preferred_username'],
      email: ['email'],
      groups: ['groups', 'roles'],
    },
    findAccount: (_ctx: unknown, sub: string) => {
      const person = people.get(sub);
      return person ? { accountId: sub, claims: () => ({ sub, ...person }) } : undefined;
    },
    // Consent is not what is tested: every grant is given as asked.
    loadExistingGrant: async (ctx: ProviderContext) => {
      const { client, session, result, provider: own } = ctx.oidc;
      const grantId = result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) return own.Grant.find(grantId);
      const grant = new own.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid profile email groups');
      grant.addOIDCClaims(['preferred_username', 'email', 'groups', 'roles']);
      await grant.save();
      return grant;
    },
  });
  server.on('request', provider.callback());

  return {
    issuer,
    clientId,
    clientSecret,
    people,
    signIn: (url, sub) => driveSignIn(issuer, url, sub),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Follows the provider's redirects and posts its login form, as a browser with cookies would. */
async function driveSignIn(issuer: string, start: string, sub: string): Promise<URL> {
  const jar = new Map<string, string>();
  const request = async (url: URL, init: RequestInit = {}) => {
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...init.headers, cookie } });
    for (const set of response.headers.getSetCookie()) {
      const [pair = ''] = set.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  };
  let url = new URL(start);
  let posted = false;
  for (let step = 0; step < 10; step += 1) {
    if (url.origin !== issuer) return url;
    const response = await request(url);
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url);
      continue;
    }
    const action = /<form[^>]*action="([^"]+)"/.exec(await response.text())?.[1];
    if (!action || posted) throw new Error(`the provider showed no login form at ${url.href}`);
    posted = true;
    const body = new URLSearchParams({ prompt: 'login', login: sub, password: 'any password' });
    const submitted = await request(new URL(action, url), {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    url = new URL(submitted.headers.get('location') ?? '', url);
  }
  throw new Error('the provider redirected too many times');
}
