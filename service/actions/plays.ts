import type { PlaysReceived, PlayUpload } from '../../src/shared/play';
import type { ServiceContext } from '../context';
import { DeviceRepository } from '../repositories/devices';
import { PlayRepository } from '../repositories/plays';
import { deviceOf } from './commands';

/**
 * Stores a device's proof of play. Records the service has already (by id: an upload repeated
 * after a lost answer) are left as they are, so nothing is counted twice.
 */
export async function recordPlays(
  ctx: ServiceContext,
  tag: string,
  plays: readonly PlayUpload[],
): Promise<PlaysReceived> {
  return ctx.changes.transaction(async (tx, emit) => {
    const device = await deviceOf(new DeviceRepository(tx), tag);
    const stored = await new PlayRepository(tx).add(device.id, plays);
    if (stored > 0) emit({ type: 'console', resource: 'plays', id: tag });
    return { received: plays.length, stored };
  });
}
