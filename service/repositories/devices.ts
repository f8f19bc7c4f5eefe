import type { Device, DeviceCreate, DeviceUpdate } from '../../src/shared/device';
import type { Queryable } from '../db/database';
import { newId } from '../ids';
import { iso, one, setClause } from './rows';

interface DeviceRow {
  id: string;
  tag: string;
  playlist_id: string | null;
  name: string;
  description: string;
  online: boolean;
  last_seen_date: Date | null;
  last_seen_ip: string | null;
}

/** The columns a device answer is made of: `diagnostics` is only served by the status route. */
const COLUMNS = 'id, tag, playlist_id, name, description, online, last_seen_date, last_seen_ip';

function fromRow(row: DeviceRow): Device {
  return {
    id: row.id,
    tag: row.tag,
    playlist_id: row.playlist_id,
    name: row.name,
    description: row.description,
    online: row.online,
    last_seen_date: iso(row.last_seen_date),
    last_seen_ip: row.last_seen_ip,
  };
}

/** A device after a presence change, and whether it was online just before. */
export interface PresenceChange {
  device: Device;
  wasOnline: boolean;
}

/** Devices are addressed by tag everywhere in the API, so every lookup here is by tag. */
export class DeviceRepository {
  constructor(private readonly db: Queryable) {}

  async list(): Promise<Device[]> {
    const rows = await this.db.query<DeviceRow>(`select ${COLUMNS} from devices order by tag`);
    return rows.map(fromRow);
  }

  async findByTag(tag: string): Promise<Device | null> {
    const rows = await this.db.query<DeviceRow>(`select ${COLUMNS} from devices where tag = $1`, [tag]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** Throws PostgreSQL's unique violation for a taken tag, its foreign key one for an unknown playlist. */
  async create(input: DeviceCreate): Promise<Device> {
    const rows = await this.db.query<DeviceRow>(
      `insert into devices (id, tag, name, description, playlist_id) values ($1, $2, $3, $4, $5)
       returning ${COLUMNS}`,
      [newId('dev'), input.tag, input.name, input.description, input.playlist_id],
    );
    return fromRow(one(rows));
  }

  /** Null when there is no such device; an empty patch answers the device as it is. */
  async update(tag: string, patch: DeviceUpdate): Promise<Device | null> {
    const set = setClause(patch, { name: 'name', description: 'description', playlist_id: 'playlist_id' }, 2);
    if (!set.sql) return this.findByTag(tag);
    const rows = await this.db.query<DeviceRow>(
      `update devices set ${set.sql} where tag = $1 returning ${COLUMNS}`,
      [tag, ...set.params],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  async delete(tag: string): Promise<boolean> {
    const rows = await this.db.query('delete from devices where tag = $1 returning id', [tag]);
    return rows.length > 0;
  }

  /** Records a heartbeat: the device is online, seen now from `ip`, and `diagnostics` replace the last ones. */
  async recordHeartbeat(
    tag: string,
    diagnostics: object,
    at: Date,
    ip: string,
  ): Promise<PresenceChange | null> {
    // The previous `online` comes from the same statement, so two heartbeats racing each other
    // cannot both believe they brought the device online.
    const rows = await this.db.query<DeviceRow & { was_online: boolean }>(
      `with previous as (select id, online from devices where tag = $1 for update)
       update devices d
          set online = true, last_seen_date = $2, last_seen_ip = $3, diagnostics = $4::jsonb
         from previous
        where d.id = previous.id
       returning d.id, d.tag, d.playlist_id, d.name, d.description, d.online, d.last_seen_date,
                 d.last_seen_ip, previous.online as was_online`,
      [tag, at, ip, JSON.stringify(diagnostics)],
    );
    return rows[0] ? { device: fromRow(rows[0]), wasOnline: rows[0].was_online } : null;
  }

  async markOffline(tag: string): Promise<PresenceChange | null> {
    const rows = await this.db.query<DeviceRow & { was_online: boolean }>(
      `with previous as (select id, online from devices where tag = $1 for update)
       update devices d
          set online = false
         from previous
        where d.id = previous.id
       returning d.id, d.tag, d.playlist_id, d.name, d.description, d.online, d.last_seen_date,
                 d.last_seen_ip, previous.online as was_online`,
      [tag],
    );
    return rows[0] ? { device: fromRow(rows[0]), wasOnline: rows[0].was_online } : null;
  }

  /** Turns offline every online device last seen before `cutoff`; their tags. */
  async markSilentOffline(cutoff: Date): Promise<string[]> {
    const rows = await this.db.query<{ tag: string }>(
      'update devices set online = false where online and last_seen_date < $1 returning tag',
      [cutoff],
    );
    return rows.map((row) => row.tag).sort();
  }

  /** The stored diagnostics of the last heartbeat: undefined without such a device, null without a heartbeat. */
  async diagnostics(tag: string): Promise<Record<string, unknown> | null | undefined> {
    const rows = await this.db.query<{ diagnostics: Record<string, unknown> | null }>(
      'select diagnostics from devices where tag = $1',
      [tag],
    );
    return rows[0] ? rows[0].diagnostics : undefined;
  }

  async tagsWithPlaylist(playlistId: string): Promise<string[]> {
    const rows = await this.db.query<{ tag: string }>(
      'select tag from devices where playlist_id = $1 order by tag',
      [playlistId],
    );
    return rows.map((row) => row.tag);
  }
}
