import type { Command, CommandStatus, CommandType } from '../../src/shared/command';
import type { Queryable } from '../db/database';
import { lockRows } from '../db/dialect';
import { newId } from '../ids';
import { isoRequired } from './rows';

interface CommandRow {
  id: string;
  device_tag: string;
  type: CommandType;
  status: CommandStatus;
  reason: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  expires_at: Date | string;
}

function fromRow(row: CommandRow): Command {
  return {
    id: row.id,
    device_tag: row.device_tag,
    type: row.type,
    status: row.status,
    reason: row.reason,
    created_at: isoRequired(row.created_at),
    updated_at: isoRequired(row.updated_at),
    expires_at: isoRequired(row.expires_at),
  };
}

/** Commands still to be finished by their device. */
export const OPEN_STATUSES: readonly CommandStatus[] = ['queued', 'delivered'];

/** Commands of devices, each read through its device's tag (the API's way of naming devices). */
export class CommandRepository {
  constructor(private readonly db: Queryable) {}

  private select() {
    return this.db.kysely
      .selectFrom('commands as c')
      .innerJoin('devices as d', 'd.id', 'c.device_id')
      .select([
        'c.id',
        'd.tag as device_tag',
        'c.type',
        'c.status',
        'c.reason',
        'c.created_at',
        'c.updated_at',
        'c.expires_at',
      ]);
  }

  async create(
    device: { id: string; tag: string },
    type: CommandType,
    at: Date,
    expiresAt: Date,
  ): Promise<Command> {
    const row = {
      id: newId('cmd'),
      device_id: device.id,
      type,
      status: 'queued' as const,
      reason: null,
      created_at: at.toISOString(),
      updated_at: at.toISOString(),
      expires_at: expiresAt.toISOString(),
    };
    await this.db.kysely.insertInto('commands').values(row).execute();
    return fromRow({ ...row, device_tag: device.tag });
  }

  async find(tag: string, id: string): Promise<Command | null> {
    const row = await this.select().where('d.tag', '=', tag).where('c.id', '=', id).executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  /** The same, its row locked until the transaction ends: a status change reads and writes it. */
  async findForUpdate(tag: string, id: string): Promise<Command | null> {
    const row = await lockRows(
      this.db.kind,
      this.select().where('d.tag', '=', tag).where('c.id', '=', id),
    ).executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  /** The newest `limit` commands of a device (of `status`, when given), answered oldest first. */
  async list(tag: string, status: CommandStatus | undefined, limit: number): Promise<Command[]> {
    const rows = await this.select()
      .where('d.tag', '=', tag)
      .$if(status !== undefined, (query) => query.where('c.status', '=', status as CommandStatus))
      .orderBy('c.created_at', 'desc')
      .orderBy('c.id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(fromRow).reverse();
  }

  /** Commands of the device not finished yet. */
  async countOpen(deviceId: string): Promise<number> {
    const row = await this.db.kysely
      .selectFrom('commands')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
      .where('device_id', '=', deviceId)
      .where('status', 'in', OPEN_STATUSES)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  async setStatus(id: string, status: CommandStatus, reason: string | null, at: Date): Promise<void> {
    await this.db.kysely
      .updateTable('commands')
      .set({ status, reason, updated_at: at.toISOString() })
      .where('id', '=', id)
      .execute();
  }

  /** Fails every unfinished command past its time with `reason`; how many. */
  async expire(now: Date, reason: (status: CommandStatus) => string): Promise<number> {
    let expired = 0;
    for (const status of OPEN_STATUSES) {
      const result = await this.db.kysely
        .updateTable('commands')
        .set({ status: 'failed', reason: reason(status), updated_at: now.toISOString() })
        .where('status', '=', status)
        .where('expires_at', '<=', now.toISOString())
        .executeTakeFirst();
      expired += Number(result.numUpdatedRows);
    }
    return expired;
  }

  /** Drops finished commands older than `before`: they told what they had to. */
  async prune(before: Date): Promise<void> {
    await this.db.kysely
      .deleteFrom('commands')
      .where('status', 'not in', OPEN_STATUSES)
      .where('updated_at', '<', before.toISOString())
      .execute();
  }
}
