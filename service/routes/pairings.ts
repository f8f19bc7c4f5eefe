import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../src/shared/common';
import { deviceSchema } from '../../src/shared/device';
import { pairingClaimSchema, pairingCreatedSchema, pairingStatusSchema } from '../../src/shared/pairing';
import { claimPairing, readPairing, startPairing } from '../actions/pairings';
import type { ServiceContext } from '../context';
import { secretFromHeader } from '../http/auth';
import { HttpError, RateLimited } from '../http/errors';
import { KeyedLimiter, type Rate } from '../http/rate-limit';

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

export function pairingRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const creations = new KeyedLimiter(PAIRING_CREATE_RATE, LIMITED_ADDRESSES);
  const failures = new KeyedLimiter(PAIRING_FAILURE_RATE, LIMITED_ADDRESSES);

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
        const wait = creations.blockedFor(request.ip);
        if (wait > 0) throw rateLimited(wait, 'pairings');
        creations.spend(request.ip);
        return reply.status(201).send(await startPairing(ctx));
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
        const wait = failures.blockedFor(request.ip);
        if (wait > 0) throw rateLimited(wait, 'polls of unknown pairings or with wrong secrets');
        const { pairing_id: id } = request.params;
        const found = await readPairing(ctx, id, secretFromHeader(request.headers.authorization));
        if (!found) {
          failures.spend(request.ip);
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
          response: { 201: deviceSchema },
        },
      },
      async (request, reply) => reply.status(201).send(await claimPairing(ctx, request.body)),
    );
  };
}
