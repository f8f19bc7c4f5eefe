import type { ServiceContext } from '../context';
import { AlertDeliveryRepository } from '../repositories/alert-deliveries';
import { AlertRuleRepository } from '../repositories/alert-rules';
import { AlertRepository } from '../repositories/alerts';
import { flapWindowMs, GATHER_MS, mergeScreens, planRule } from './incidents';

/** What one account's pass did: incidents opened (or joined) and resolved. */
export interface IncidentPassResult {
  opened: string[];
  resolved: string[];
}

/**
 * One pass over the current account's rules (the job runs it as each account, jobs/alerts.ts):
 * opens an incident for the screens that newly qualify for a rule (or adds them to the one still
 * gathering), resolves those whose screens are all back, and queues their messages, all in one
 * transaction, so an incident is never stored without its deliveries. The watching consoles hear
 * of each incident opened, joined or resolved (`alerts`), after the commit.
 */
export async function incidentPass(ctx: ServiceContext): Promise<IncidentPassResult> {
  return ctx.changes.transaction(async (tx, emit) => {
    const rules = await new AlertRuleRepository(tx).list();
    const result: IncidentPassResult = { opened: [], resolved: [] };
    if (rules.length === 0) return result;
    const incidents = new AlertRepository(tx);
    const deliveries = new AlertDeliveryRepository(tx);
    const devices = await incidents.watchedDevices();
    const now = ctx.clock.now();
    for (const rule of rules) {
      const since = new Date(now.getTime() - flapWindowMs(rule.after_seconds));
      const known = await incidents.ofRule(rule.id, since);
      const plan = planRule(
        { id: rule.id, afterSeconds: rule.after_seconds, target: rule.target },
        devices,
        known,
        now.getTime(),
      );
      if (plan.newly.length > 0) {
        const gathering = known.find((incident) => incident.id === plan.joins);
        if (gathering) {
          await incidents.setDevices(gathering.id, mergeScreens(gathering.devices, plan.newly));
          emit({ type: 'console', resource: 'alerts', id: gathering.id });
          result.opened.push(gathering.id);
        } else {
          const gatherUntil = new Date(now.getTime() + GATHER_MS);
          const id = await incidents.create(rule.id, mergeScreens([], plan.newly), now, gatherUntil);
          // The alert goes out once the incident has stopped gathering screens.
          await deliveries.add(id, rule.destination_ids, 'firing', gatherUntil);
          emit({ type: 'console', resource: 'alerts', id });
          result.opened.push(id);
        }
      }
      for (const id of plan.resolve) {
        await incidents.resolve(id, now);
        await deliveries.add(id, rule.destination_ids, 'resolved', now);
        emit({ type: 'console', resource: 'alerts', id });
        result.resolved.push(id);
      }
    }
    return result;
  });
}
