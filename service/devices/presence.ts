import type { Device, Heartbeat } from '../../src/shared/device';
import type { ServiceContext } from '../context';
import type { Emit } from '../realtime/publisher';
import { rooms } from '../realtime/rooms';
import { DeviceRepository } from '../repositories/devices';

/**
 * Presence of devices. A device is online from its first heartbeat until it says it goes
 * offline, or until no heartbeat came for `config.offlineAfterSeconds` (the sweep below).
 * The HTTP routes and the socket hub both record heartbeats through here.
 */

function announce(emit: Emit, tag: string): void {
  emit({ type: 'device.changed', device_tag: tag }, [rooms.device(tag)]);
}

/**
 * Stores a heartbeat: online, seen now from `ip`, the heartbeat kept as the device's diagnostics
 * with the time it was received. Null for an unknown device. Only a device that was offline is
 * announced: a heartbeat of an online device changes nothing a screen shows.
 */
export async function recordHeartbeat(
  ctx: ServiceContext,
  tag: string,
  heartbeat: Heartbeat,
  ip: string,
): Promise<Device | null> {
  const now = ctx.clock.now();
  const diagnostics = { ...heartbeat, received_at: now.toISOString() };
  return ctx.events.transaction(async (tx, emit) => {
    const change = await new DeviceRepository(tx).recordHeartbeat(tag, diagnostics, now, ip);
    if (!change) return null;
    if (!change.wasOnline) announce(emit, tag);
    return change.device;
  });
}

/** The device says it is going offline (it quits). Null for an unknown device. */
export async function recordGoingOffline(ctx: ServiceContext, tag: string): Promise<Device | null> {
  return ctx.events.transaction(async (tx, emit) => {
    const change = await new DeviceRepository(tx).markOffline(tag);
    if (!change) return null;
    announce(emit, tag);
    return change.device;
  });
}

/** Turns offline every device silent for longer than the grace period; the tags it turned offline. */
export async function sweepPresence(ctx: ServiceContext): Promise<string[]> {
  const cutoff = new Date(ctx.clock.now().getTime() - ctx.config.offlineAfterSeconds * 1000);
  return ctx.events.transaction(async (tx, emit) => {
    const tags = await new DeviceRepository(tx).markSilentOffline(cutoff);
    for (const tag of tags) announce(emit, tag);
    return tags;
  });
}

/** How often the sweeper runs: three times per grace period, at most once a second. */
export function sweepIntervalMs(offlineAfterSeconds: number): number {
  return Math.max(1, offlineAfterSeconds / 3) * 1000;
}

/**
 * Runs `sweepPresence` on a timer, so a device is seen offline at most a third of the grace
 * period late. Returns the stop function; it resolves once a sweep under way has finished, so
 * the store can be closed right after.
 */
export function startPresenceSweeper(
  ctx: ServiceContext,
  onError: (error: unknown) => void = (error) => console.error('presence sweep failed', error),
): () => Promise<void> {
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    // A sweep slower than the interval must not pile up behind itself.
    if (running) return;
    running = sweepPresence(ctx)
      .then(() => undefined, onError)
      .finally(() => {
        running = null;
      });
  }, sweepIntervalMs(ctx.config.offlineAfterSeconds));
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
