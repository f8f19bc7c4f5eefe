import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CONSOLE_BASE } from '../../src/shared/console-page';
import { ssoConfigSaveSchema, ssoConfigSchema, ssoOptionsSchema, type SsoError } from '../../src/shared/sso';
import { DEFAULT_ACCOUNT_ID, withAccount } from '../accounts/scope';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';
import { recordSignIn } from '../audit/sign-ins';
import { RateLimited } from '../http/errors';
import { clientNetwork, KeyedLimiter, type Rate } from '../http/rate-limit';
import { setSessionCookie } from '../http/session-cookie';
import { AccountSsoRepository } from '../repositories/account-sso';
import { recordSsoFailure } from '../sso/audit';
import { answerOf, saveSso } from '../sso/config';
import { beginSsoSignIn, finishSsoSignIn, SSO_FLOW_MS, SsoRefused } from '../sso/sign-in';

const TAG = 'session';
const CALLBACK = '/session/sso/callback';
/** Ties the provider's return to the browser that left for it (routes/sso.ts). */
const FLOW_COOKIE = 'wb_sso';
/**
 * Sign-ins begun by one client address (an IPv6 /64): 60 at once, then one a second. Each begun
 * one asks the provider for its discovery document and writes a flow, so a flood must not; a
 * whole office behind one NAT address signing in at nine still gets in.
 */
export const SSO_START_RATE: Rate = { burst: 60, perSecond: 1 };
const accountQuery = z.strictObject({ account: z.string().min(1).max(200).default(DEFAULT_ACCOUNT_ID) });

/**
 * The redirect URI, as the browser reached this service (no proxy header is trusted), in the
 * URL's own form (`http://host:80/` is `http://host/`), as the token request sends it back.
 */
function redirectUriOf(request: FastifyRequest): string {
  return new URL(CALLBACK, `${request.protocol}://${request.host}`).href;
}

/**
 * Lax, not Strict as the session cookie: the provider's return is a top-level navigation from
 * another site, which must carry it. Only the callback's path receives it.
 */
function flowCookieOptions(request: FastifyRequest) {
  return { httpOnly: true, sameSite: 'lax' as const, path: CALLBACK, secure: request.protocol === 'https' };
}

/** Sends the browser to the console's sign-in page, which tells the reason in words. */
function toSignInPage(reply: FastifyReply, reason: SsoError, account?: string): FastifyReply {
  const query = new URLSearchParams({ sso_error: reason, ...(account ? { account } : {}) });
  return reply.redirect(`${CONSOLE_BASE}sign-in?${query}`);
}

/** Single sign-on through OpenID Connect (docs/single-sign-on.md): its settings and its sign-in. */
export function ssoRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const settings = new AccountSsoRepository(ctx.db);
  const starts = new KeyedLimiter(SSO_START_RATE, 10_000);
  return async (app) => {
    app.get(
      '/account/sso',
      {
        config: { permission: 'users' },
        schema: {
          tags: [TAG],
          summary:
            "The account's single sign-on settings; the client secret is never answered (`has_client_secret`); 404 when there are none",
          response: { 200: ssoConfigSchema },
        },
      },
      async (request) => {
        const sso = await settings.find();
        if (!sso) throw notFound('single sign-on of this account');
        return answerOf(sso, redirectUriOf(request));
      },
    );

    app.put(
      '/account/sso',
      {
        config: { permission: 'users' },
        schema: {
          tags: [TAG],
          summary:
            "Sets the account's single sign-on: the provider (checked by discovery), the client, and how claims map to roles and screen groups; `client_secret` left out keeps the stored one",
          body: ssoConfigSaveSchema,
          response: { 200: ssoConfigSchema },
        },
      },
      async (request) => answerOf(await saveSso(ctx, request.body), redirectUriOf(request)),
    );

    app.delete(
      '/account/sso',
      {
        config: { permission: 'users' },
        schema: {
          tags: [TAG],
          summary:
            "Removes the account's single sign-on: its users made by it stay, and sign in no more until it is set again",
        },
      },
      async (_request, reply) => {
        if (!(await settings.delete())) throw notFound('single sign-on of this account');
        return reply.status(204).send();
      },
    );

    app.get(
      '/session/sso/options',
      {
        config: { permission: 'public' },
        schema: {
          tags: [TAG],
          summary:
            'Whether the account (the default one unless `account` names another) signs in by single sign-on: what the sign-in page offers',
          querystring: accountQuery,
          response: { 200: ssoOptionsSchema },
        },
      },
      async (request) => {
        const sso = await withAccount(request.query.account, () => settings.find());
        return { sso: sso !== null };
      },
    );

    app.get(
      '/session/sso',
      {
        config: { permission: 'public' },
        schema: {
          tags: [TAG],
          summary:
            "Begins a sign-in through the account's identity provider: redirects there (authorization code with PKCE); the provider sends the browser back to /session/sso/callback",
          querystring: accountQuery,
        },
      },
      async (request, reply) => {
        const { account } = request.query;
        const address = clientNetwork(request.ip);
        const wait = starts.blockedFor(address);
        if (wait > 0) throw new RateLimited(wait, `too many sign-ins begun; try again in ${wait} s`);
        starts.spend(address);
        try {
          const begun = await beginSsoSignIn(ctx, account, redirectUriOf(request));
          reply.setCookie(FLOW_COOKIE, begun.cookie, {
            ...flowCookieOptions(request),
            maxAge: SSO_FLOW_MS / 1000,
          });
          return reply.redirect(begun.url.href);
        } catch (error) {
          if (error instanceof SsoRefused) return toSignInPage(reply, error.reason, account);
          request.log.warn({ err: error }, 'single sign-on: the identity provider failed at the start');
          return toSignInPage(reply, 'provider', account);
        }
      },
    );

    app.get(
      CALLBACK,
      {
        config: { permission: 'public' },
        schema: {
          tags: [TAG],
          summary:
            "The identity provider's return: opens a session (the cookie `wb_session`, as POST /session sets it) and redirects to the console, or to its sign-in page saying why not",
        },
      },
      async (request, reply) => {
        const current = new URL(redirectUriOf(request));
        current.search = new URL(request.url, 'http://callback').search;
        reply.clearCookie(FLOW_COOKIE, flowCookieOptions(request));
        try {
          const signedIn = await finishSsoSignIn(ctx, request.cookies[FLOW_COOKIE] ?? null, current);
          await recordSignIn(ctx.db, signedIn, 'sso', request.ip, ctx.clock.now());
          setSessionCookie(request, reply, signedIn.secret, signedIn.maxAgeSeconds);
          return reply.redirect(CONSOLE_BASE);
        } catch (error) {
          if (!(error instanceof SsoRefused)) throw error;
          if (error.reason === 'provider') {
            request.log.warn(
              { err: error.cause },
              'single sign-on: the identity provider failed at the return',
            );
          } else {
            request.log.info({ reason: error.reason, detail: error.message }, 'single sign-on refused');
          }
          await recordSsoFailure(ctx.db, error, request.ip, ctx.clock.now());
          return toSignInPage(reply, error.reason);
        }
      },
    );
  };
}
