import type { TokenScope } from '../../src/shared/token';
import type { ServiceContext } from '../context';
import { hashSecret, newSecret } from '../http/auth';
import { DeviceRepository } from '../repositories/devices';
import { TokenRepository, unknownDevice, type StoredToken } from '../repositories/tokens';

/**
 * A new token, and its secret, which is given this once: only its hash is kept. `deviceTag`
 * (scope affiliated) binds it to that device. Watching consoles are told.
 */
export async function createToken(
  ctx: ServiceContext,
  input: { scope: TokenScope; name: string; deviceTag?: string },
): Promise<{ token: StoredToken; secret: string }> {
  const { deviceTag } = input;
  // Checked first for a clear answer; the store still refuses a device deleted meanwhile.
  if (deviceTag !== undefined && !(await new DeviceRepository(ctx.db).findByTag(deviceTag))) {
    throw unknownDevice(deviceTag);
  }
  const secret = newSecret();
  const token = await new TokenRepository(ctx.db).create({ ...input, secretHash: hashSecret(secret) });
  await ctx.changes.publish({ type: 'console', resource: 'tokens', id: token.id });
  return { token, secret };
}

/** Deletes the token: requests with it are refused at once, on every node. False when there is none. */
export async function deleteToken(ctx: ServiceContext, id: string): Promise<boolean> {
  const gone = await ctx.changes.transaction(async (tx, emit) => {
    if (!(await new TokenRepository(tx).delete(id))) return false;
    emit({ type: 'console', resource: 'tokens', id });
    return true;
  });
  if (gone) ctx.auth.forget(id);
  return gone;
}
