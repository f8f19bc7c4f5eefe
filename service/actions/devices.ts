import { withAccount } from '../accounts/scope';
import type { Device, DeviceCreate, DeviceUpdate, Heartbeat } from '../../src/shared/device';
import type { ServiceContext } from '../context';
import type { Queryable } from '../db/database';
import type { Emit } from '../realtime/changes';
import { DeviceHistoryRepository } from '../repositories/device-history';
import { DeviceRepository, unknownGroup } from '../repositories/devices';
import { GroupRepository } from '../repositories/groups';
import { TokenRepository } from '../repositories/tokens';
import { writeHeartbeat } from './heartbeat-writes';
import { checkPlaylistsNamed, checkSchedule } from './screen-settings';

/**
 * Devices and their presence. A device is online from its first heartbeat until it says it goes
 * offline, until its socket is gone for longer than a short grace (realtime/presence.ts), or
 * until no heartbeat came for `config.offlineAfterSeconds` (the sweep, a job).
 */

function announce(emit: Emit, tag: string): void {
  emit({ type: 'device.changed', device_tag: tag });
}

/**
 * What the store cannot check of a device's settings, in the write's transaction: its schedule's
 * playlists exist (locked until the commit), and so does its group (locked too, so that a delete
 * of the group does not miss it). The repository still refuses a playlist deleted meanwhile.
 */
async function checkReferences(tx: Queryable, input: DeviceUpdate): Promise<void> {
  await checkPlaylistsNamed(tx, input);
  if (input.group_id && !(await new GroupRepository(tx).lock(input.group_id))) {
    throw unknownGroup(input.group_id);
  }
}

/** A device with an unused tag. Nothing is listening to its room yet. */
export async function createDevice(ctx: ServiceContext, input: DeviceCreate): Promise<Device> {
  checkSchedule(input.schedule);
  return ctx.changes.transaction(async (tx, emit) => {
    await checkReferences(tx, input);
    const device = await new DeviceRepository(tx).create(input);
    // Nothing is listening to its room yet: the consoles list it.
    emit({ type: 'console', resource: 'devices', id: device.tag });
    return device;
  });
}

/** Null when there is no such device; a setting null unsets it (its group's, or the default, applies). */
export async function updateDevice(
  ctx: ServiceContext,
  tag: string,
  patch: DeviceUpdate,
): Promise<Device | null> {
  checkSchedule(patch.schedule);
  return ctx.changes.transaction(async (tx, emit) => {
    await checkReferences(tx, patch);
    const updated = await new DeviceRepository(tx).update(tag, patch);
    // An empty patch changes nothing, so the device need not hear of it.
    if (updated && Object.values(patch).some((value) => value !== undefined)) announce(emit, tag);
    return updated;
  });
}

/**
 * False when there is no such device. Its own tokens are deleted with it (the store cascades),
 * and the authenticator is told, so that they are refused, and their sockets cut, at once.
 */
export async function deleteDevice(ctx: ServiceContext, tag: string): Promise<boolean> {
  const { gone, tokenIds } = await ctx.changes.transaction(async (tx, emit) => {
    const tokenIds = await new TokenRepository(tx).idsBoundTo(tag);
    const gone = await new DeviceRepository(tx).delete(tag);
    if (gone) announce(emit, tag);
    return { gone, tokenIds };
  });
  for (const id of tokenIds) ctx.auth.forget(id);
  return gone;
}

/**
 * Stores a heartbeat: online, seen now from `ip`, the heartbeat kept as the device's diagnostics
 * with the time it was received. Null for an unknown device. Only a device that was offline is
 * announced: a heartbeat of an online device changes nothing a screen shows. Written with the
 * heartbeats of other devices that arrive meanwhile (actions/heartbeat-writes.ts).
 */
export function recordHeartbeat(
  ctx: ServiceContext,
  tag: string,
  heartbeat: Heartbeat,
  ip: string,
): Promise<Device | null> {
  return writeHeartbeat(ctx, tag, heartbeat, ip);
}

/** The device says it is going offline (it quits). Null for an unknown device. */
export async function recordGoingOffline(ctx: ServiceContext, tag: string): Promise<Device | null> {
  return ctx.changes.transaction(async (tx, emit) => {
    const change = await new DeviceRepository(tx).markOffline(tag);
    if (!change) return null;
    announce(emit, tag);
    if (change.wasOnline) {
      await new DeviceHistoryRepository(tx).add(tag, [
        { at: ctx.clock.now(), kind: 'offline', detail: 'the device said it goes offline' },
      ]);
    }
    return change.device;
  });
}

/**
 * The last socket of the device went at `since` and none came back within the grace
 * (realtime/presence.ts): it is offline, unless a heartbeat arrived since, which proves it plays
 * on (a socket blocked on the way, or one on another process of the service). True when it was
 * turned offline.
 */
export async function recordSocketGone(ctx: ServiceContext, tag: string, since: Date): Promise<boolean> {
  return ctx.changes.transaction(async (tx, emit) => {
    const turned = await new DeviceRepository(tx).markOfflineIfSilentSince(tag, since);
    if (turned) {
      announce(emit, tag);
      const detail = 'its connection was lost and did not come back';
      await new DeviceHistoryRepository(tx).add(tag, [{ at: ctx.clock.now(), kind: 'offline', detail }]);
    }
    return turned;
  });
}

/**
 * Turns offline every device silent for longer than the grace period, account by account (a tag
 * names a device within one); the tags it turned offline.
 */
export async function sweepPresence(ctx: ServiceContext): Promise<string[]> {
  const cutoff = new Date(ctx.clock.now().getTime() - ctx.config.offlineAfterSeconds * 1000);
  const turned: string[] = [];
  for (const account of await new DeviceRepository(ctx.db).accountsWithSilent(cutoff)) {
    turned.push(...(await withAccount(account, () => sweepAccount(ctx, cutoff))));
  }
  return turned;
}

async function sweepAccount(ctx: ServiceContext, cutoff: Date): Promise<string[]> {
  return ctx.changes.transaction(async (tx, emit) => {
    const tags = await new DeviceRepository(tx).markSilentOffline(cutoff);
    for (const tag of tags) announce(emit, tag);
    const detail = `no heartbeat for ${ctx.config.offlineAfterSeconds} s`;
    await new DeviceHistoryRepository(tx).addToAll(tags, { at: ctx.clock.now(), kind: 'offline', detail });
    return tags;
  });
}
