import { sql } from 'kysely';
import type { Device, Heartbeat } from '../../src/shared/device';
import type { ServiceContext } from '../context';
import type { Queryable } from '../db/database';
import { DeviceHistoryRepository, type HistoryInput } from '../repositories/device-history';
import { DeviceRepository, type HeartbeatWrite } from '../repositories/devices';
import { byAccount, CoalescedWrites, coalescerPer, type Waiting } from './coalesced-writes';
import { heartbeatHistory } from './device-history';

/** Heartbeats written by one statement at most. */
const BATCH_LIMIT = 500;

interface Beat {
  beat: HeartbeatWrite;
  heartbeat: Heartbeat;
}

/**
 * The heartbeats of a node's devices, written together (coalesced-writes.ts): one locking read and
 * one update for every device of a batch, so a fleet's heartbeats cost a transaction per batch,
 * not one each. A device's second heartbeat within a batch waits for the next one, so what its
 * history says follows each heartbeat in turn. Each is answered once its batch has committed: a
 * read after the answer sees it, on any node.
 */
const heartbeatWrites = coalescerPer(
  (ctx: ServiceContext) =>
    new CoalescedWrites<Beat, Device | null>((batch) => write(ctx, batch), {
      limit: BATCH_LIMIT,
      keyOf: ({ beat }) => beat.tag,
    }),
);

/** Writes `batch` in one transaction: each device as a single heartbeat would (actions/devices.ts). */
function write(
  ctx: ServiceContext,
  batch: readonly Waiting<Beat, Device | null>[],
): Promise<(Device | null)[]> {
  return ctx.changes.transaction(async (tx, emit) => {
    let announced = false;
    const devices = await byAccount(batch, async (group) => {
      const changes = await new DeviceRepository(tx).recordHeartbeats(group.map((one) => one.item.beat));
      const history: (HistoryInput & { deviceId: string })[] = [];
      for (const one of group) {
        const { tag, at, ip } = one.item.beat;
        const change = changes.get(tag);
        if (!change) continue;
        // Only a device that was offline is announced: a heartbeat of an online device changes
        // nothing a screen shows.
        if (!change.wasOnline) {
          emit({ type: 'device.changed', device_tag: tag });
          announced = true;
        }
        const entries = heartbeatHistory(
          change.previousDiagnostics,
          one.item.heartbeat,
          change.wasOnline,
          at,
          ip,
        );
        history.push(...entries.map((entry) => ({ ...entry, deviceId: change.device.id })));
        // What it shows or failed to show changed: the device need not hear of it, but a
        // console must. A heartbeat that changes nothing tells nobody.
        if (change.wasOnline && entries.length > 0) emit({ type: 'console', resource: 'devices', id: tag });
      }
      await new DeviceHistoryRepository(tx).addByDeviceId(history);
      return group.map((one) => changes.get(one.item.beat.tag)?.device ?? null);
    });
    if (!announced) await commitWithoutWaitingForTheDisk(tx);
    return devices;
  });
}

/**
 * PostgreSQL commits the transaction without waiting for its WAL to reach the disk (the
 * transaction stays atomic and is seen by every other at once; a crash of the database within
 * about 3 x wal_writer_delay may lose it). Only batches of heartbeats of devices that were online
 * take this: what they write (last seen time and address, diagnostics, and the history entries
 * drawn from the diagnostics) the device's next heartbeat writes again, measured against what the
 * store kept. A batch that brings a device online logs an event, which a device may have heard
 * by its id and which must not be lost, so it waits. The embedded store has no such setting.
 */
async function commitWithoutWaitingForTheDisk(tx: Queryable): Promise<void> {
  if (tx.kind === 'postgres') await sql`set local synchronous_commit = off`.execute(tx.kysely);
}

/**
 * Stores a heartbeat: online, seen now from `ip`, the heartbeat kept as the device's diagnostics
 * with the time it was received, together with the heartbeats of other devices that arrive
 * meanwhile. Null for an unknown device.
 */
export function writeHeartbeat(
  ctx: ServiceContext,
  tag: string,
  heartbeat: Heartbeat,
  ip: string,
): Promise<Device | null> {
  const at = ctx.clock.now();
  const diagnostics = { ...heartbeat, received_at: at.toISOString() };
  return heartbeatWrites(ctx).record({
    beat: { tag, at, ip, diagnostics, timeZone: heartbeat.time_zone },
    heartbeat,
  });
}
