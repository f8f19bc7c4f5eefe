import type { KeyValueStore, Logger } from './ports';
import { ServiceError, type ServiceClient } from './service-client';

export interface Identity {
  tag: string;
  id: string;
}

const IDENTITY_KEY = 'identity';

/**
 * Finds this device by its tag, or creates it; the identity is stored so a restart reuses it.
 * Creating races with another start of the same device end in the same device (409 → look up).
 */
export async function ensureRegistered(
  client: ServiceClient,
  store: KeyValueStore,
  log: Logger,
  wanted: { tag: string; name: string; description: string },
): Promise<Identity> {
  const stored = (await store.read(IDENTITY_KEY)) as Partial<Identity> | undefined;
  let device;
  try {
    device = await client.getDevice(wanted.tag);
  } catch (error) {
    if (!(error instanceof ServiceError) || error.status !== 404) throw error;
    try {
      device = await client.createDevice(wanted);
      log.info(`registered as device "${device.tag}" (${device.id})`);
    } catch (createError) {
      if (!(createError instanceof ServiceError) || createError.status !== 409) throw createError;
      device = await client.getDevice(wanted.tag);
    }
  }
  const identity = { tag: device.tag, id: device.id };
  if (stored?.id !== identity.id || stored.tag !== identity.tag) await store.write(IDENTITY_KEY, identity);
  return identity;
}

/** The service does not know this device (any more): it must register again. */
export class UnknownDeviceError extends Error {
  constructor(tag: string) {
    super(`the service does not know device "${tag}"`);
  }
}
