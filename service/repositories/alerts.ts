import type { Alert } from '../../src/shared/alert';
import type { IncidentView, Screen, WatchedDevice } from '../alerts/incidents';
import type { Queryable } from '../db/database';
import { flag, fromJson, toJson } from '../db/dialect';
import { newId } from '../ids';
import { AlertDeliveryRepository } from './alert-deliveries';
import { iso, isoRequired } from './rows';

/** `GET /alerts` answers the newest incidents, up to this many. */
export const ALERTS_LISTED = 500;

const COLUMNS = [
  'id',
  'rule_id',
  'event',
  'status',
  'devices',
  'started_at',
  'gather_until',
  'resolved_at',
] as const;

/** An incident row, as the senders read it too. */
export interface IncidentRow {
  id: string;
  rule_id: string;
  event: 'device.offline';
  status: 'firing' | 'resolved';
  devices: string;
  started_at: Date | string;
  gather_until: Date | string;
  resolved_at: Date | string | null;
}

const ms = (value: Date | string) => new Date(value).getTime();

function viewOf(row: IncidentRow): IncidentView {
  return {
    id: row.id,
    status: row.status,
    devices: fromJson<Screen[]>(row.devices),
    gatherUntil: ms(row.gather_until),
    resolvedAt: row.resolved_at === null ? null : ms(row.resolved_at),
  };
}

/** The incidents of alert rules (migration 15), and what the alert job reads of screens. */
export class AlertRepository {
  constructor(private readonly db: Queryable) {}

  /** The newest first, each with how its messages went. */
  async list(): Promise<Alert[]> {
    const rows = await this.db.kysely
      .selectFrom('alerts')
      .select(COLUMNS)
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .limit(ALERTS_LISTED)
      .execute();
    const deliveries = await new AlertDeliveryRepository(this.db).ofAlerts(rows.map((row) => row.id));
    return rows.map((row) => {
      const screens = fromJson<Screen[]>(row.devices);
      const resolvedAt = iso(row.resolved_at);
      return {
        id: row.id,
        event: row.event,
        status: row.status,
        devices: screens.map((screen) => screen.tag),
        screens,
        started_at: isoRequired(row.started_at),
        ...(resolvedAt === null ? {} : { resolved_at: resolvedAt }),
        rule_id: row.rule_id,
        deliveries: deliveries.get(row.id) ?? [],
      };
    });
  }

  /** Every screen of the account with what the rules read of it. */
  async watchedDevices(): Promise<WatchedDevice[]> {
    const rows = await this.db.kysely
      .selectFrom('devices')
      .select(['tag', 'name', 'online', 'last_seen_date', 'group_id'])
      .execute();
    return rows.map((row) => ({
      tag: row.tag,
      name: row.name,
      online: flag(row.online),
      lastSeen: row.last_seen_date === null ? null : ms(row.last_seen_date),
      groupId: row.group_id,
    }));
  }

  /** The rule's firing incidents, and those resolved since `since`. */
  async ofRule(ruleId: string, since: Date): Promise<IncidentView[]> {
    const rows = await this.db.kysely
      .selectFrom('alerts')
      .select(COLUMNS)
      .where('rule_id', '=', ruleId)
      .where((eb) => eb.or([eb('status', '=', 'firing'), eb('resolved_at', '>=', since.toISOString())]))
      .execute();
    return rows.map(viewOf);
  }

  async find(id: string): Promise<IncidentRow | null> {
    const row = await this.db.kysely
      .selectFrom('alerts')
      .select(COLUMNS)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ?? null;
  }

  async create(ruleId: string, screens: readonly Screen[], at: Date, gatherUntil: Date): Promise<string> {
    const id = newId('alrt');
    await this.db.kysely
      .insertInto('alerts')
      .values({
        id,
        rule_id: ruleId,
        event: 'device.offline',
        status: 'firing',
        devices: toJson(screens),
        started_at: at.toISOString(),
        gather_until: gatherUntil.toISOString(),
        resolved_at: null,
      })
      .execute();
    return id;
  }

  async setDevices(id: string, screens: readonly Screen[]): Promise<void> {
    await this.db.kysely
      .updateTable('alerts')
      .set({ devices: toJson(screens) })
      .where('id', '=', id)
      .execute();
  }

  async resolve(id: string, at: Date): Promise<void> {
    await this.db.kysely
      .updateTable('alerts')
      .set({ status: 'resolved', resolved_at: at.toISOString() })
      .where('id', '=', id)
      .execute();
  }
}
