import type { TokenScope } from '../../src/shared/token';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';
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
  ctx.notices.changed('tokens', token.id);
  return { token, secret };
}

/** Deletes the token: requests with it are refused at once, on every node. Not found: 404. */
export async function deleteToken(ctx: ServiceContext, id: string): Promise<void> {
  if (!(await new TokenRepository(ctx.db).delete(id))) throw notFound(`token ${id}`);
  ctx.auth.forget(id);
  ctx.notices.changed('tokens', id);
}
