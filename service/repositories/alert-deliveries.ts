import type { AlertDelivery, AlertStatus } from '../../src/shared/alert';
import type { Queryable } from '../db/database';
import { newId } from '../ids';
import { iso } from './rows';

/** A delivery due now, as the sender needs it. */
export interface DueDelivery {
  id: string;
  alertId: string;
  destinationId: string;
  phase: AlertStatus;
  attempts: number;
}

/** A message sent before it could be stored, as it went (AlertDeliveryRepository.restore). */
export interface RestoredDelivery {
  id: string;
  destinationId: string;
  phase: AlertStatus;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  lastError: string | null;
}

/** What an attempt came to: delivered, tried again at `retryAt`, or given up. */
export type AttemptOutcome =
  | { kind: 'delivered'; at: Date }
  | { kind: 'retry'; at: Date; retryAt: Date; error: string }
  | { kind: 'failed'; at: Date; error: string };

/**
 * The messages of incidents (migration 15): one per incident, destination and phase, kept with
 * their attempts and next time, so retries outlive a restart and a change of leading node.
 */
export class AlertDeliveryRepository {
  constructor(private readonly db: Queryable) {}

  /** One message per destination, first tried at `due`. */
  async add(
    alertId: string,
    destinationIds: readonly string[],
    phase: AlertStatus,
    due: Date,
  ): Promise<void> {
    if (destinationIds.length === 0) return;
    await this.db.kysely
      .insertInto('alert_deliveries')
      .values(
        destinationIds.map((destinationId) => ({
          id: newId('adlv'),
          alert_id: alertId,
          destination_id: destinationId,
          phase,
          status: 'pending' as const,
          attempts: 0,
          next_attempt_at: due.toISOString(),
        })),
      )
      .execute();
  }

  /**
   * Messages that were sent (or are still being tried) before they could be stored: a
   * `node.unwritable` incident's, kept in memory while the store took no writes
   * (alerts/unwritable.ts). Each keeps its id, the one its receivers saw, and how it went; a
   * pending one is tried on from here by the delivery pass. Their ids were made before those of
   * the recovery added next, so they list first (by time, then id).
   */
  async restore(alertId: string, deliveries: readonly RestoredDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    await this.db.kysely
      .insertInto('alert_deliveries')
      .values(
        deliveries.map((delivery) => ({
          id: delivery.id,
          alert_id: alertId,
          destination_id: delivery.destinationId,
          phase: delivery.phase,
          status: delivery.status,
          attempts: delivery.attempts,
          next_attempt_at: delivery.nextAttemptAt?.toISOString() ?? null,
          delivered_at: delivery.deliveredAt?.toISOString() ?? null,
          last_error: delivery.lastError,
        })),
      )
      .execute();
  }

  /** Pending ones whose time has come, the longest waiting first. */
  async due(now: Date, limit: number): Promise<DueDelivery[]> {
    const rows = await this.db.kysely
      .selectFrom('alert_deliveries')
      .select(['id', 'alert_id', 'destination_id', 'phase', 'attempts'])
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now.toISOString())
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      alertId: row.alert_id,
      destinationId: row.destination_id,
      phase: row.phase,
      attempts: Number(row.attempts),
    }));
  }

  /** Whether the alert's firing message to the destination is still to be delivered. */
  async firingPending(alertId: string, destinationId: string): Promise<boolean> {
    const row = await this.db.kysely
      .selectFrom('alert_deliveries')
      .select('id')
      .where('alert_id', '=', alertId)
      .where('destination_id', '=', destinationId)
      .where('phase', '=', 'firing')
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Moves a delivery on to `at` without counting an attempt. */
  async postpone(id: string, at: Date): Promise<void> {
    await this.db.kysely
      .updateTable('alert_deliveries')
      .set({ next_attempt_at: at.toISOString() })
      .where('id', '=', id)
      .execute();
  }

  async record(id: string, attempts: number, outcome: AttemptOutcome): Promise<void> {
    const set =
      outcome.kind === 'delivered'
        ? { status: 'delivered' as const, delivered_at: outcome.at.toISOString(), next_attempt_at: null }
        : outcome.kind === 'retry'
          ? { next_attempt_at: outcome.retryAt.toISOString(), last_error: outcome.error }
          : { status: 'failed' as const, next_attempt_at: null, last_error: outcome.error };
    await this.db.kysely
      .updateTable('alert_deliveries')
      .set({ ...set, attempts })
      .where('id', '=', id)
      .execute();
  }

  /** Alert id to its deliveries, oldest first. */
  async ofAlerts(alertIds: readonly string[]): Promise<Map<string, AlertDelivery[]>> {
    const found = new Map<string, AlertDelivery[]>();
    if (alertIds.length === 0) return found;
    const rows = await this.db.kysely
      .selectFrom('alert_deliveries')
      .selectAll()
      .where('alert_id', 'in', alertIds)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    for (const row of rows) {
      const next = iso(row.next_attempt_at);
      const delivered = iso(row.delivered_at);
      const delivery: AlertDelivery = {
        destination_id: row.destination_id,
        phase: row.phase,
        status: row.status,
        attempts: Number(row.attempts),
        ...(next === null ? {} : { next_attempt_at: next }),
        ...(delivered === null ? {} : { delivered_at: delivered }),
        ...(row.last_error === null ? {} : { last_error: row.last_error }),
      };
      found.set(row.alert_id, [...(found.get(row.alert_id) ?? []), delivery]);
    }
    return found;
  }
}
