import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../src/shared/api-error';
import { idSchema } from '../../src/shared/common';
import { deviceSchema } from '../../src/shared/device';
import { pairingClaimSchema, pairingCreatedSchema, pairingStatusSchema } from '../../src/shared/pairing';
import { accountOrDefault } from '../accounts/scope';
import { claimPairing, readPairing, startPairing, UnknownCode } from '../actions/pairings';
import type { ServiceContext } from '../context';
import { secretFromHeader } from '../http/auth';
import { HttpError, RateLimited } from '../http/errors';
import { WrongCodeBudgets, type Claimer, type WrongCodeLimit } from '../http/pairing-limits';
import { clientNetwork, KeyedLimiter, type Rate } from '../http/rate-limit';

/**
 * New pairings per client address: a screen asks for one every 10 minutes while it waits, and a
 * room of screens behind one address booting together asks for a few dozen at once.
 */
export const PAIRING_CREATE_RATE: Rate = { burst: 30, perSecond: 1 / 10 };
/** Polls with an unknown pairing or a wrong secret per client address, as for unknown tokens. */
export const PAIRING_FAILURE_RATE: Rate = { burst: 20, perSecond: 1 / 3 };
const LIMITED_ADDRESSES = 10_000;

function rateLimited(seconds: number, what: string): RateLimited {
  return new RateLimited(seconds, `too many ${what} from this address; try again in ${seconds} s`);
}

const pairingParams = z.object({ pairing_id: idSchema });

const WRONG_CODES_FROM: Record<WrongCodeLimit, string> = {
  token: 'with this token (or user)',
  account: 'in this account',
  address: 'from this address',
  all: 'across the service',
};

/** Who claims: the token, or the signed-in user, with its account and its client's network. */
function claimerOf(request: FastifyRequest): Claimer {
  return {
    principal: request.token ? `token:${request.token.id}` : `user:${request.session?.user_id ?? ''}`,
    account: accountOrDefault(),
    address: clientNetwork(request.ip),
  };
}

export function pairingRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const creations = new KeyedLimiter(PAIRING_CREATE_RATE, LIMITED_ADDRESSES);
  const failures = new KeyedLimiter(PAIRING_FAILURE_RATE, LIMITED_ADDRESSES);
  const wrongCodes = new WrongCodeBudgets(ctx.config.pairing.wrongCodes);

  return async (app) => {
    app.post(
      '/pairings',
      {
        config: { permission: 'public' },
        schema: {
          tags: ['pairing'],
          summary:
            'A screen without a credential asks to be paired: a code to show (10 minutes) and the secret to poll with',
          response: { 201: pairingCreatedSchema },
        },
      },
      async (request, reply) => {
        // An IPv6 client by its /64: one host has them all.
        const source = clientNetwork(request.ip);
        const wait = creations.blockedFor(source);
        if (wait > 0) throw rateLimited(wait, 'pairings');
        creations.spend(source);
        const start = await startPairing(ctx, source);
        if ('sourceFull' in start) {
          const { waiting, retryAfterSeconds } = start.sourceFull;
          throw new RateLimited(
            retryAfterSeconds,
            `${waiting} screens from this address are waiting with their codes already, each polled; claim one, or try again in ${retryAfterSeconds} s`,
          );
        }
        return reply.status(201).send(start.started);
      },
    );

    app.get(
      '/pairings/:pairing_id',
      {
        config: { permission: 'public' },
        schema: {
          tags: ['pairing'],
          summary:
            'The screen polls with `Authorization: Bearer <secret>`: pending, or claimed with its device tag and token (answered once); 410 expired or already read; 404 wrong secret',
          params: pairingParams,
          response: { 200: pairingStatusSchema },
        },
      },
      async (request) => {
        const address = clientNetwork(request.ip);
        const wait = failures.blockedFor(address);
        if (wait > 0) throw rateLimited(wait, 'polls of unknown pairings or with wrong secrets');
        const { pairing_id: id } = request.params;
        const found = await readPairing(ctx, id, secretFromHeader(request.headers.authorization));
        if (!found) {
          failures.spend(address);
          throw new HttpError(404, 'not_found', `pairing ${id} not found, or not with this secret`);
        }
        if (found.status === 'expired') {
          throw new HttpError(410, 'gone', `pairing ${id} expired unclaimed; ask for a new pairing`);
        }
        if (found.status === 'read') {
          throw new HttpError(410, 'gone', `pairing ${id} was claimed and its token read already`);
        }
        return found;
      },
    );

    app.post(
      '/pairings/claim',
      {
        config: { permission: 'devices:write', fullOnly: true },
        schema: {
          tags: ['pairing'],
          summary:
            "Claims a screen's code: creates the device (or re-pairs the one of `tag`) and the token the screen reads",
          body: pairingClaimSchema,
          response: { 201: deviceSchema, 429: apiErrorSchema },
        },
      },
      async (request, reply) => {
        // Taken before the code is looked up, so that claims racing each other cannot all pass.
        const claimer = claimerOf(request);
        const refused = wrongCodes.take(claimer);
        if (refused) {
          throw new RateLimited(
            refused.seconds,
            `too many wrong pairing codes ${WRONG_CODES_FROM[refused.limit]}; check the code on the screen and try again in ${refused.seconds} s`,
          );
        }
        try {
          const device = await claimPairing(ctx, request.body);
          wrongCodes.giveBack(claimer);
          return await reply.status(201).send(device);
        } catch (error) {
          // Only a code no screen shows costs: an unknown playlist or a failing store does not.
          if (!(error instanceof UnknownCode)) wrongCodes.giveBack(claimer);
          throw error;
        }
      },
    );
  };
}
