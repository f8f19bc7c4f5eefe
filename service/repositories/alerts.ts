import type { Alert, AlertEvent, AlertNode } from '../../src/shared/alert';
import type { IncidentView } from '../alerts/incidents';
import type { Screen } from '../alerts/screens';
import { shownScript, type ScriptSubject } from '../alerts/scripts';
import type { Queryable } from '../db/database';
import { fromJson, fromJsonOrNull, toJson } from '../db/dialect';
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
  'scripts',
  'node',
  'started_at',
  'gather_until',
  'resolved_at',
] as const;

/** An incident row, as the senders read it too. */
export interface IncidentRow {
  id: string;
  rule_id: string;
  event: AlertEvent;
  status: 'firing' | 'resolved';
  devices: string;
  scripts: string | null;
  node: string | null;
  started_at: Date | string;
  gather_until: Date | string;
  resolved_at: Date | string | null;
}

/** What an incident names: screens (in `devices`), scripts, or a node. */
export interface IncidentSubjects {
  screens: Screen[];
  scripts: ScriptSubject[];
  node: AlertNode | null;
}

/** Which column holds the subjects that incidents of a rule join by. */
export type SubjectColumn = 'devices' | 'scripts';

const ms = (value: Date | string) => new Date(value).getTime();

export function subjectsOf(row: Pick<IncidentRow, 'devices' | 'scripts' | 'node'>): IncidentSubjects {
  return {
    screens: fromJson<Screen[]>(row.devices),
    scripts: fromJsonOrNull<ScriptSubject[]>(row.scripts) ?? [],
    node: fromJsonOrNull<AlertNode>(row.node),
  };
}

/** The incidents of alert rules (migrations 15 and 18). */
export class AlertRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * The newest first, each with how its messages went. An incident names `scripts` or a `node`
   * only when it is about them: an offline incident answers as it always did.
   */
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
      const { screens, scripts, node } = subjectsOf(row);
      const resolvedAt = iso(row.resolved_at);
      return {
        id: row.id,
        event: row.event,
        status: row.status,
        devices: screens.map((screen) => screen.tag),
        screens,
        ...(row.event === 'script.failing' ? { scripts: scripts.map(shownScript) } : {}),
        ...(node ? { node } : {}),
        started_at: isoRequired(row.started_at),
        ...(resolvedAt === null ? {} : { resolved_at: resolvedAt }),
        rule_id: row.rule_id,
        deliveries: deliveries.get(row.id) ?? [],
      };
    });
  }

  /** The rule's firing incidents, and those resolved since `since`, with the subjects of `column`. */
  async ofRule<S>(ruleId: string, since: Date, column: SubjectColumn): Promise<IncidentView<S>[]> {
    const rows = await this.db.kysely
      .selectFrom('alerts')
      .select(COLUMNS)
      .where('rule_id', '=', ruleId)
      .where((eb) => eb.or([eb('status', '=', 'firing'), eb('resolved_at', '>=', since.toISOString())]))
      .execute();
    return rows.map((row) => ({
      id: row.id,
      status: row.status,
      subjects: fromJsonOrNull<S[]>(row[column]) ?? [],
      gatherUntil: ms(row.gather_until),
      resolvedAt: row.resolved_at === null ? null : ms(row.resolved_at),
    }));
  }

  async find(id: string): Promise<IncidentRow | null> {
    const row = await this.db.kysely
      .selectFrom('alerts')
      .select(COLUMNS)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ?? null;
  }

  /** A firing incident of the rule naming `subjects` (in `column`); its id. */
  async create<S>(
    rule: { id: string; event: AlertEvent },
    column: SubjectColumn,
    subjects: readonly S[],
    at: Date,
    gatherUntil: Date,
  ): Promise<string> {
    const id = newId('alrt');
    await this.db.kysely
      .insertInto('alerts')
      .values({
        id,
        rule_id: rule.id,
        event: rule.event,
        status: 'firing',
        devices: toJson(column === 'devices' ? subjects : []),
        scripts: column === 'scripts' ? toJson(subjects) : null,
        started_at: at.toISOString(),
        gather_until: gatherUntil.toISOString(),
        resolved_at: null,
      })
      .execute();
    return id;
  }

  async setSubjects<S>(id: string, column: SubjectColumn, subjects: readonly S[]): Promise<void> {
    await this.db.kysely
      .updateTable('alerts')
      .set(column === 'devices' ? { devices: toJson(subjects) } : { scripts: toJson(subjects) })
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

  /**
   * Writes a `node.unwritable` incident that was kept in memory while the store took no writes
   * (alerts/unwritable.ts), under the id its messages already carried, as resolved at `resolvedAt`.
   */
  async recordResolvedNode(
    incident: { id: string; ruleId: string; node: AlertNode; startedAt: Date },
    resolvedAt: Date,
  ): Promise<void> {
    await this.db.kysely
      .insertInto('alerts')
      .values({
        id: incident.id,
        rule_id: incident.ruleId,
        event: 'node.unwritable',
        status: 'resolved',
        devices: toJson([]),
        node: toJson(incident.node),
        started_at: incident.startedAt.toISOString(),
        gather_until: incident.startedAt.toISOString(),
        resolved_at: resolvedAt.toISOString(),
      })
      .execute();
  }
}
