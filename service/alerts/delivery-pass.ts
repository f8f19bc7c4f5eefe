import type { AlertStatus } from '../../src/shared/alert';
import type { ServiceContext } from '../context';
import { AlertDestinationRepository } from '../repositories/alert-destinations';
import {
  AlertDeliveryRepository,
  type AttemptOutcome,
  type DueDelivery,
} from '../repositories/alert-deliveries';
import { AlertRepository, subjectsOf, type IncidentRow } from '../repositories/alerts';
import { iso, isoRequired } from '../repositories/rows';
import type { AlertMessage } from './messages';
import { shownScript } from './scripts';
import type { SendAlert } from './senders';

/** Attempts of one message before it is given up (failed): about 50 minutes of tries. */
export const MAX_ATTEMPTS = 10;
const FIRST_RETRY_MS = 10_000;
const LONGEST_RETRY_MS = 15 * 60_000;
/** Messages sent per pass and account, at once: a slow receiver holds one of them, not the pass. */
const PER_PASS = 20;

/** The wait after the `attempts`th failed attempt: 10 s, 20 s, 40 s… at most 15 minutes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);
}

/** A recovery waits for its alert to the same destination: a receiver never hears them reversed. */
const RECOVERY_WAIT_MS = 5_000;

/**
 * Sends the current account's messages that are due, and records each attempt: delivered, or
 * tried again after `retryDelayMs`, or given up after MAX_ATTEMPTS. The incident is read as it is
 * now; the phase of the delivery says whether it is the alert or the recovery. Returns how many
 * were attempted.
 */
export async function deliveryPass(ctx: ServiceContext, send: SendAlert): Promise<number> {
  const deliveries = new AlertDeliveryRepository(ctx.db);
  const due = await deliveries.due(ctx.clock.now(), PER_PASS);
  if (due.length === 0) return 0;
  const destinations = await new AlertDestinationRepository(ctx.db).targets([
    ...new Set(due.map((delivery) => delivery.destinationId)),
  ]);
  const incidents = new AlertRepository(ctx.db);
  let attempted = 0;
  await Promise.all(
    due.map(async (delivery) => {
      const target = destinations.get(delivery.destinationId);
      const incident = await incidents.find(delivery.alertId);
      // Deleted meanwhile: its deliveries went with it.
      if (!target || !incident) return;
      if (delivery.phase === 'resolved' && (await deliveries.firingPending(delivery.alertId, target.id))) {
        await deliveries.postpone(delivery.id, new Date(ctx.clock.now().getTime() + RECOVERY_WAIT_MS));
        return;
      }
      const message = messageOf(incident, delivery.phase);
      attempted += 1;
      const outcome = await attempt(ctx, send, delivery, target, message);
      await deliveries.record(delivery.id, delivery.attempts + 1, outcome);
      if (outcome.kind === 'failed') {
        ctx.log.error(
          { err: new Error(outcome.error) },
          `alert ${incident.id} could not be delivered to destination ${target.id} after ${MAX_ATTEMPTS} attempts`,
        );
      }
    }),
  );
  return attempted;
}

/** The message of one phase of a stored incident: its screens, or its scripts or node. */
export function messageOf(incident: IncidentRow, phase: AlertStatus): AlertMessage {
  const { screens, scripts, node } = subjectsOf(incident);
  return {
    alert: {
      id: incident.id,
      event: incident.event,
      status: phase,
      devices: screens.map((screen) => screen.tag),
      started_at: isoRequired(incident.started_at),
      ...(phase === 'resolved' ? { resolved_at: iso(incident.resolved_at) ?? '' } : {}),
    },
    screens,
    ...(incident.event === 'script.failing' ? { scripts: scripts.map(shownScript) } : {}),
    ...(node ? { node } : {}),
  };
}

/**
 * Sends one message once: delivered, or when to try again, or given up at MAX_ATTEMPTS. The
 * in-memory messages of unwritable.ts go through it too, so their retries keep the same pace.
 */
export async function attempt(
  ctx: Pick<ServiceContext, 'clock'>,
  send: SendAlert,
  delivery: Pick<DueDelivery, 'id' | 'attempts'>,
  target: Parameters<SendAlert>[0],
  message: AlertMessage,
): Promise<AttemptOutcome> {
  try {
    await send(target, message, delivery.id);
    return { kind: 'delivered', at: ctx.clock.now() };
  } catch (error) {
    const at = ctx.clock.now();
    const why = (error as Error).message;
    const attempts = delivery.attempts + 1;
    if (attempts >= MAX_ATTEMPTS) return { kind: 'failed', at, error: why };
    return { kind: 'retry', at, retryAt: new Date(at.getTime() + retryDelayMs(attempts)), error: why };
  }
}
