import { holdQuota } from '../accounts/quotas';
import { withAccount } from '../accounts/scope';
import { openSession, type SignedIn } from '../actions/users';
import type { ServiceContext } from '../context';
import { DomainError } from '../domain/errors';
import { hashSecret, newSecret } from '../http/auth';
import { AccountSsoRepository, type StoredSso } from '../repositories/account-sso';
import { SsoFlowRepository } from '../repositories/sso-flows';
import { UserRepository, type StoredUser } from '../repositories/users';
import type { SsoError } from '../../src/shared/sso';
import { loginOf, mapClaims } from './claims';
import { authorizationOf, claimsOf, discover, failureOf } from './provider';

/** How long a person has at the provider before the sign-in must start again. */
export const SSO_FLOW_MS = 10 * 60_000;

/** Whom a refusal concerns, as far as it is known: for the audit trail. */
export interface RefusedWho {
  /** The account signing in, once the flow is found. */
  account?: string;
  /** The person's login, or their subject, once the provider named them. */
  name?: string;
}

/**
 * A sign-in that ends without a session, and why, in the words of `SSO_ERRORS`; `cause` holds
 * the provider's failure (`provider`), for the log.
 */
export class SsoRefused extends Error {
  constructor(
    readonly reason: SsoError,
    detail?: string,
    readonly who: RefusedWho = {},
    options?: { cause: unknown },
  ) {
    super(detail ?? reason, options);
  }
}

/** What the browser is sent to, and the secret of the cookie that ties the return to it. */
export interface Begun {
  url: URL;
  cookie: string;
}

/**
 * Begins a sign-in to `account` through its provider: the flow (state, nonce, PKCE verifier) is
 * kept in the store under the hash of a new cookie secret, so the node the browser returns to
 * finishes it, and only the browser that began it can.
 */
export async function beginSsoSignIn(
  ctx: ServiceContext,
  account: string,
  redirectUri: string,
): Promise<Begun> {
  const sso = await withAccount(account, () => new AccountSsoRepository(ctx.db).find());
  if (!sso) throw new SsoRefused('not_configured');
  const config = await discover(sso, ctx.config);
  const authorization = await authorizationOf(sso, config, redirectUri);
  const cookie = newSecret();
  const flows = new SsoFlowRepository(ctx.db);
  const now = ctx.clock.now();
  await flows.prune(now);
  await flows.create(
    hashSecret(cookie),
    {
      account,
      state: authorization.state,
      nonce: authorization.nonce,
      code_verifier: authorization.codeVerifier,
    },
    new Date(now.getTime() + SSO_FLOW_MS),
  );
  return { url: authorization.url, cookie };
}

/**
 * Finishes a sign-in at the provider's return (`currentUrl`: the redirect URI and its query): the
 * flow of the browser's cookie is taken (once), its state must match, the code is exchanged and
 * the ID token checked, the person mapped, made or updated, and a session opened as a password
 * sign-in opens one. Refused (SsoRefused) otherwise.
 */
export async function finishSsoSignIn(
  ctx: ServiceContext,
  cookie: string | null,
  currentUrl: URL,
): Promise<SignedIn> {
  const flow = cookie ? await new SsoFlowRepository(ctx.db).take(hashSecret(cookie), ctx.clock.now()) : null;
  const query = currentUrl.searchParams;
  if (!flow || query.get('state') !== flow.state) throw new SsoRefused('expired');
  const { account } = flow;
  if (query.has('error')) {
    const why = query.get('error_description') ?? query.get('error') ?? '';
    throw new SsoRefused('denied', why, { account });
  }
  return withAccount(account, async () => {
    const sso = await new AccountSsoRepository(ctx.db).find();
    if (!sso) throw new SsoRefused('not_configured', undefined, { account });
    let claims: Record<string, unknown>;
    try {
      claims = await claimsOf(await discover(sso, ctx.config), currentUrl, {
        state: flow.state,
        nonce: flow.nonce,
        codeVerifier: flow.code_verifier,
      });
    } catch (error) {
      const why = failureOf(error);
      throw new SsoRefused('provider', why, { account }, { cause: error });
    }
    const user = await userOf(ctx, sso, claims, account);
    return openSession(ctx, user);
  });
}

/**
 * The person of `claims` as a user of the current account: made at the first sign-in (no
 * password), and given the role and groups the claims map to at each one, as the provider is
 * where people's access is managed.
 */
async function userOf(
  ctx: ServiceContext,
  sso: StoredSso,
  claims: Record<string, unknown>,
  account: string,
): Promise<StoredUser> {
  const login = loginOf(claims);
  const who = { account, name: login ?? `sub ${String(claims.sub)}` };
  const mapped = mapClaims(sso, claims);
  if ('refused' in mapped) throw new SsoRefused(mapped.refused, undefined, who);
  // The issuer names whose subject it is: the same `sub` from another provider is someone else.
  const subject = `${sso.issuer} ${String(claims.sub)}`;
  return ctx.changes.transaction(async (tx, emit) => {
    const users = new UserRepository(tx);
    const known = await users.findBySsoSubject(subject);
    if (known) {
      const same = known.role === mapped.role && known.groups.join('\n') === mapped.groups.join('\n');
      if (same) return known;
      const updated = await users.update(known.id, mapped, ctx.clock.now());
      emit({ type: 'console', resource: 'users', id: known.id });
      return updated ?? known;
    }
    if (!login) throw new SsoRefused('no_login', undefined, who);
    if ((await users.findAllByLogin(login)).length) throw new SsoRefused('login_taken', login, who);
    try {
      await holdQuota(tx, 'users');
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'quota')
        throw new SsoRefused('quota', undefined, who);
      throw error;
    }
    const made = await users.create({
      login,
      passwordHash: '',
      role: mapped.role,
      groups: mapped.groups,
      ssoSubject: subject,
    });
    emit({ type: 'console', resource: 'users', id: made.id });
    return made;
  });
}
