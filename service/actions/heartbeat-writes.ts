import { AsyncLocalStorage } from 'node:async_hooks';
import { sql } from 'kysely';
import { acrossAccounts, currentAccount, withAccount } from '../accounts/scope';
import type { Device, Heartbeat } from '../../src/shared/device';
import type { ServiceContext } from '../context';
import type { Queryable } from '../db/database';
import { DeviceHistoryRepository, type HistoryInput } from '../repositories/device-history';
import { DeviceRepository, type HeartbeatWrite } from '../repositories/devices';
import { heartbeatHistory } from './device-history';

/** Heartbeats written by one statement at most. */
const BATCH_LIMIT = 500;

/** Runs work outside the scopes of whichever request started it (its account, its bound device). */
const detached = AsyncLocalStorage.snapshot();

interface Waiting {
  account: string | undefined;
  beat: HeartbeatWrite;
  heartbeat: Heartbeat;
  answer(device: Device | null): void;
  fail(error: unknown): void;
}

/**
 * The heartbeats of a node's devices, written together: those that arrive while a batch is
 * written wait for the next, which writes every device among them at once (one locking read
 * and one update for all), so a fleet's heartbeats cost a transaction per batch, not one each. A
 * device's second heartbeat within a batch waits for the next one, so what its history says
 * follows each heartbeat in turn. Each is answered once its batch has committed: a read after the
 * answer sees it, on any node.
 */
class HeartbeatWrites {
  private waiting: Waiting[] = [];
  private writing = false;

  constructor(private readonly ctx: ServiceContext) {}

  record(tag: string, heartbeat: Heartbeat, ip: string): Promise<Device | null> {
    const at = this.ctx.clock.now();
    const diagnostics = { ...heartbeat, received_at: at.toISOString() };
    return new Promise((answer, fail) => {
      this.waiting.push({
        account: currentAccount(),
        beat: { tag, at, ip, diagnostics, timeZone: heartbeat.time_zone },
        heartbeat,
        answer,
        fail,
      });
      if (!this.writing) detached(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.take();
        try {
          const devices = await this.write(batch);
          for (const one of batch) one.answer(devices.get(one) ?? null);
        } catch (error) {
          // One heartbeat the store refuses must not fail its neighbours: each is tried alone.
          if (batch.length === 1) batch[0]?.fail(error);
          else for (const one of batch) this.writeAlone(one);
        }
      }
    } finally {
      this.writing = false;
    }
  }

  /** The first heartbeat of each device waiting, up to the limit; the others wait on. */
  private take(): Waiting[] {
    const taken: Waiting[] = [];
    const left: Waiting[] = [];
    const devices = new Set<string>();
    for (const one of this.waiting) {
      const device = JSON.stringify([one.account, one.beat.tag]);
      if (taken.length < BATCH_LIMIT && !devices.has(device)) {
        devices.add(device);
        taken.push(one);
      } else left.push(one);
    }
    this.waiting = left;
    return taken;
  }

  private writeAlone(one: Waiting): void {
    this.write([one]).then(
      (devices) => one.answer(devices.get(one) ?? null),
      (error: unknown) => one.fail(error),
    );
  }

  /** Writes `batch` in one transaction: each device as a single heartbeat would (actions/devices.ts). */
  private write(batch: readonly Waiting[]): Promise<Map<Waiting, Device | null>> {
    const byAccount = new Map<string | undefined, Waiting[]>();
    for (const one of batch) {
      const group = byAccount.get(one.account);
      if (group) group.push(one);
      else byAccount.set(one.account, [one]);
    }
    return this.ctx.changes.transaction(async (tx, emit) => {
      const devices = new Map<Waiting, Device | null>();
      let announced = false;
      for (const [account, group] of byAccount) {
        const work = async () => {
          const changes = await new DeviceRepository(tx).recordHeartbeats(group.map((one) => one.beat));
          const history: (HistoryInput & { deviceId: string })[] = [];
          for (const one of group) {
            const { tag, at, ip } = one.beat;
            const change = changes.get(tag);
            devices.set(one, change?.device ?? null);
            if (!change) continue;
            // Only a device that was offline is announced: a heartbeat of an online device changes
            // nothing a screen shows.
            if (!change.wasOnline) {
              emit({ type: 'device.changed', device_tag: tag });
              announced = true;
            }
            const entries = heartbeatHistory(
              change.previousDiagnostics,
              one.heartbeat,
              change.wasOnline,
              at,
              ip,
            );
            history.push(...entries.map((entry) => ({ ...entry, deviceId: change.device.id })));
            // What it shows or failed to show changed: the device need not hear of it, but a
            // console must. A heartbeat that changes nothing tells nobody.
            if (change.wasOnline && entries.length > 0)
              emit({ type: 'console', resource: 'devices', id: tag });
          }
          await new DeviceHistoryRepository(tx).addByDeviceId(history);
        };
        await (account === undefined ? acrossAccounts(work) : withAccount(account, work));
      }
      if (!announced) await commitWithoutWaitingForTheDisk(tx);
      return devices;
    });
  }
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

const writers = new WeakMap<ServiceContext, HeartbeatWrites>();

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
  let writer = writers.get(ctx);
  if (!writer) writers.set(ctx, (writer = new HeartbeatWrites(ctx)));
  return writer.record(tag, heartbeat, ip);
}
