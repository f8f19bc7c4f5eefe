import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Device } from '../../src/shared/device';
import {
  PAIRING_CODE_ALPHABET,
  PAIRING_CODE_LENGTH,
  PAIRING_TTL_SECONDS,
  type PairingClaim,
  type PairingCreated,
  type PairingStatus,
} from '../../src/shared/pairing';
import type { ServiceContext } from '../context';
import { DomainError, unavailable } from '../domain/errors';
import { hashSecret, newSecret } from '../http/auth';
import { DeviceRepository, unknownPlaylist } from '../repositories/devices';
import { PairingRepository, type WaitingPairing } from '../repositories/pairings';
import { PlaylistRepository } from '../repositories/playlists';
import { TokenRepository } from '../repositories/tokens';

/**
 * Pairing a screen by a code (docs/api.md, Pairing). A screen asks for a pairing and shows its
 * code; an operator claims the code with a full token, which creates (or re-pairs) the device and
 * a token bound to it; the screen reads that token once with the pairing's secret.
 */

/** Expired pairings are kept this long, so a screen polling late is told 410 rather than 404. */
export const EXPIRED_PAIRINGS_KEPT_MS = 60 * 60_000;
const TTL_MS = PAIRING_TTL_SECONDS * 1000;
/** Draws of a code before giving up: with 31^6 codes, a second draw is already rare. */
const CODE_DRAWS = 8;

function newCode(): string {
  let code = '';
  for (let i = 0; i < PAIRING_CODE_LENGTH; i++)
    code += PAIRING_CODE_ALPHABET[randomInt(PAIRING_CODE_ALPHABET.length)];
  return code;
}

/** Not a token: a different prefix, so that neither is mistaken for the other in a log or a config. */
function newPairingSecret(): string {
  return `wbp_${randomBytes(32).toString('base64url')}`;
}

function sameHash(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
}

/** A new pairing, or the source holds its share already, all polled: when its oldest expires. */
export type PairingStart =
  { started: PairingCreated } | { sourceFull: { waiting: number; retryAfterSeconds: number } };

/** Of `waiting` (oldest first), the never-polled ones to let go so that one more fits under `cap`; null: too few. */
function toLetGo(waiting: WaitingPairing[], cap: number): string[] | null {
  const excess = waiting.length - cap + 1;
  if (excess <= 0) return [];
  const unpolled = waiting.filter((pairing) => !pairing.polled).map((pairing) => pairing.id);
  return unpolled.length >= excess ? unpolled.slice(0, excess) : null;
}

/**
 * A new pairing with a code no other kept pairing has, for `source` (its client's IPv4 address or
 * IPv6 /64). A source holds `perSource` unclaimed pairings at most: past that its oldest one no
 * screen has polled makes room, and when all were polled it waits. When `liveMax` pairings are
 * live the oldest never-polled ones (a flood's: a screen polls its code at once) make room, so
 * that a flood cannot keep a new screen from its code; 503 only when every one was polled.
 */
export async function startPairing(ctx: ServiceContext, source: string): Promise<PairingStart> {
  const { liveMax, perSource } = ctx.config.pairing;
  const now = ctx.clock.now();
  const secret = newPairingSecret();
  const expiresAt = new Date(now.getTime() + TTL_MS);
  const result = await ctx.db.transaction(async (tx): Promise<PairingStart & { letGo: number }> => {
    const pairings = new PairingRepository(tx);
    await pairings.lockStarts();
    const waiting = await pairings.waitingFrom(source, now);
    const ownLetGo = toLetGo(waiting, perSource);
    if (!ownLetGo) {
      const oldest = Date.parse(waiting[0]?.expiresAt ?? expiresAt.toISOString());
      const retryAfterSeconds = Math.max(1, Math.ceil((oldest - now.getTime()) / 1000));
      return { sourceFull: { waiting: waiting.length, retryAfterSeconds }, letGo: 0 };
    }
    await pairings.deleteUnclaimed(ownLetGo);
    const excess = (await pairings.countLive(now)) - liveMax + 1;
    const floodLetGo = excess > 0 ? await pairings.oldestUnpolled(now, excess) : [];
    if (floodLetGo.length < excess) {
      throw unavailable('too many pairings are under way; try again in a few minutes');
    }
    await pairings.deleteUnclaimed(floodLetGo);
    const letGo = ownLetGo.length + floodLetGo.length;
    for (let draw = 0; draw < CODE_DRAWS; draw++) {
      const pairing = await pairings.create({
        code: newCode(),
        secretHash: hashSecret(secret),
        expiresAt,
        source,
      });
      if (pairing) {
        const started = { pairing_id: pairing.id, code: pairing.code, secret, expires_at: pairing.expiresAt };
        return { started, letGo };
      }
    }
    throw unavailable('no free pairing code was found; try again');
  });
  if (result.letGo > 0) await ctx.changes.publish({ type: 'console', resource: 'pairings' });
  if ('started' in result) {
    await ctx.changes.publish({ type: 'console', resource: 'pairings', id: result.started.pairing_id });
    return { started: result.started };
  }
  return { sourceFull: result.sourceFull };
}

/** What the screen's poll finds: null for no such pairing or a wrong secret (both 404). */
export type PairingRead = PairingStatus | { status: 'expired' } | { status: 'read' } | null;

/**
 * The pairing's state for its screen. A claimed pairing answers its token once: the read that
 * takes it clears it from the store (of two reads racing, one gets it).
 */
export async function readPairing(
  ctx: ServiceContext,
  id: string,
  secret: string | null,
): Promise<PairingRead> {
  const pairings = new PairingRepository(ctx.db);
  const pairing = await pairings.find(id);
  if (!pairing || !secret || !sameHash(pairing.secretHash, hashSecret(secret))) return null;
  const now = ctx.clock.now();
  if (pairing.readAt) return { status: 'read' };
  if (new Date(pairing.expiresAt) <= now) return { status: 'expired' };
  if (!pairing.claimedAt) {
    // Once: a pairing its screen watches is never let go to make room for a flood's.
    if (!pairing.polledAt) await pairings.markPolled(id, now);
    return { status: 'pending' };
  }
  const { tokenSecret, deviceTag } = pairing;
  if (tokenSecret && deviceTag && (await pairings.markRead(id, now))) {
    await ctx.changes.publish({ type: 'console', resource: 'pairings', id });
    return { status: 'claimed', device_tag: deviceTag, token: tokenSecret };
  }
  return { status: 'read' };
}

/** A claim's code that no screen is waiting with: the one refusal that counts as a guess. */
export class UnknownCode extends DomainError {
  constructor(code: string) {
    super(
      'not_found',
      `no screen is waiting with code ${code}: it is mistyped, expired (a code lives ${PAIRING_TTL_SECONDS / 60} minutes; the screen then shows a new one) or already claimed`,
    );
  }
}

const unknownCode = (code: string) => new UnknownCode(code);

/** `screen-<code>`, or with a number after it when a device has that tag already. */
async function derivedTag(devices: DeviceRepository, code: string): Promise<string> {
  const base = `screen-${code.toLowerCase()}`;
  for (let n = 1; ; n++) {
    const tag = n === 1 ? base : `${base}-${n}`;
    if (!(await devices.findByTag(tag))) return tag;
  }
}

/**
 * Claims the code: creates the device (or takes the existing one of `tag`, re-pairing it: a
 * replaced screen takes its place, and `name`/`playlist_id` when given are set on it) and a token
 * of scope affiliated bound to it, whose secret waits in the pairing for the screen's read.
 */
export async function claimPairing(ctx: ServiceContext, claim: PairingClaim): Promise<Device> {
  const now = ctx.clock.now();
  const pairing = await new PairingRepository(ctx.db).findClaimable(claim.code, now);
  if (!pairing) throw unknownCode(claim.code);
  if (claim.playlist_id && !(await new PlaylistRepository(ctx.db).exists(claim.playlist_id))) {
    throw unknownPlaylist(claim.playlist_id);
  }
  const secret = newSecret();
  return ctx.changes.transaction(async (tx, emit) => {
    const devices = new DeviceRepository(tx);
    const tag = claim.tag ?? (await derivedTag(devices, pairing.code));
    let device = await devices.findByTag(tag);
    if (!device) {
      device = await devices.create({
        tag,
        name: claim.name ?? '',
        description: '',
        playlist_id: claim.playlist_id ?? null,
      });
    } else if (claim.name !== undefined || claim.playlist_id !== undefined) {
      device = (await devices.update(tag, { name: claim.name, playlist_id: claim.playlist_id })) ?? device;
      emit({ type: 'device.changed', device_tag: tag });
    }
    const token = await new TokenRepository(tx).create({
      scope: 'affiliated',
      name: `paired with code ${pairing.code}`,
      secretHash: hashSecret(secret),
      deviceTag: tag,
    });
    const claimed = await new PairingRepository(tx).claim(pairing.id, {
      at: now,
      deviceTag: tag,
      tokenId: token.id,
      tokenSecret: secret,
      expiresAt: new Date(now.getTime() + TTL_MS),
    });
    // Claimed by another request meanwhile: this one's device and token are rolled back.
    if (!claimed) throw unknownCode(claim.code);
    // A new device logs no event (nothing listens to it yet): the consoles are told.
    emit({ type: 'console', resource: 'devices', id: device.tag });
    emit({ type: 'console', resource: 'tokens', id: token.id });
    emit({ type: 'console', resource: 'pairings', id: pairing.id });
    return device;
  });
}

/**
 * One pass of the expiry job: the tokens of pairings claimed but never read are deleted (their
 * secrets reached no one), and pairings expired for longer than EXPIRED_PAIRINGS_KEPT_MS go.
 */
export async function expirePairings(ctx: ServiceContext): Promise<void> {
  const now = ctx.clock.now();
  const unread = await ctx.changes.transaction(async (tx, emit) => {
    const pairings = new PairingRepository(tx);
    const tokenIds = await pairings.unreadExpiredTokens(now);
    await pairings.forgetUnreadExpired(now);
    const tokens = new TokenRepository(tx);
    for (const id of tokenIds) await tokens.delete(id);
    const deleted = await pairings.deleteExpiredBefore(new Date(now.getTime() - EXPIRED_PAIRINGS_KEPT_MS));
    if (tokenIds.length > 0) emit({ type: 'console', resource: 'tokens' });
    if (tokenIds.length > 0 || deleted > 0) emit({ type: 'console', resource: 'pairings' });
    return tokenIds;
  });
  for (const id of unread) ctx.auth.forget(id);
}
