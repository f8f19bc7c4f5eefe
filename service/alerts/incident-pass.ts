import type { AlertRule } from '../../src/shared/alert';
import type { ServiceContext } from '../context';
import type { Queryable } from '../db/database';
import type { Emit } from '../realtime/changes';
import { AlertDeliveryRepository } from '../repositories/alert-deliveries';
import { AlertRuleRepository } from '../repositories/alert-rules';
import { AlertWatchRepository } from '../repositories/alert-watch';
import { AlertRepository, type SubjectColumn } from '../repositories/alerts';
import { GATHER_MS, mergeSubjects, planRule, type EventWatch } from './incidents';
import { failingWatch, flapWindowMs, offlineWatch, type WatchedDevice } from './screens';
import { scriptWatch, type ScriptState } from './scripts';

/** What one account's pass did: incidents opened (or joined) and resolved. */
export interface IncidentPassResult {
  opened: string[];
  resolved: string[];
}

/** One rule's event as the pass runs it: what it watches, where it keeps it, how far back it looks. */
interface RuleRun<S> {
  watch: EventWatch<S>;
  column: SubjectColumn;
  /** Resolved incidents older than this cannot matter to the rule's flapping. */
  historyMs: number;
}

/** What the pass read once for all of an account's rules: screens, scripts, as they need. */
interface Read {
  devices: WatchedDevice[];
  scripts: ScriptState[];
}

async function readFor(tx: Queryable, rules: readonly AlertRule[]): Promise<Read> {
  const events = new Set(rules.map((rule) => rule.event));
  const watch = new AlertWatchRepository(tx);
  const screens = events.has('device.offline') || events.has('device.failing');
  return {
    devices: screens ? await watch.devices(events.has('device.failing')) : [],
    scripts: events.has('script.failing') ? await watch.scripts() : [],
  };
}

/** The run of a rule's event; null for node.unwritable, which each node watches itself (unwritable.ts). */
function runOf(rule: AlertRule, read: Read, now: number): RuleRun<unknown> | null {
  const afterSeconds = rule.after_seconds ?? 0;
  switch (rule.event) {
    case 'device.offline':
    case 'device.failing': {
      if ('script_id' in rule.target) return null;
      const screenRule = { afterSeconds, target: rule.target };
      return rule.event === 'device.offline'
        ? {
            watch: offlineWatch(screenRule, read.devices, now),
            column: 'devices',
            historyMs: flapWindowMs(afterSeconds),
          }
        : {
            watch: failingWatch(screenRule, read.devices, now),
            column: 'devices',
            historyMs: afterSeconds * 1000,
          };
    }
    case 'script.failing': {
      if ('group_id' in rule.target || 'device_tag' in rule.target) return null;
      const watch = scriptWatch({ failures: rule.failures ?? 1, target: rule.target }, read.scripts);
      return { watch: watch as EventWatch<unknown>, column: 'scripts', historyMs: 0 };
    }
    case 'node.unwritable':
      return null;
  }
}

/**
 * One pass over the current account's rules (the job runs it as each account, jobs/alerts.ts):
 * opens an incident for the subjects that newly qualify for a rule (or adds them to the one still
 * gathering), resolves those whose subjects are all back, and queues their messages, all in one
 * transaction, so an incident is never stored without its deliveries. The watching consoles hear
 * of each incident opened, joined or resolved (`alerts`), after the commit.
 */
export async function incidentPass(ctx: ServiceContext): Promise<IncidentPassResult> {
  return ctx.changes.transaction(async (tx, emit) => {
    const rules = (await new AlertRuleRepository(tx).list()).filter(
      (rule) => rule.event !== 'node.unwritable',
    );
    const result: IncidentPassResult = { opened: [], resolved: [] };
    if (rules.length === 0) return result;
    const read = await readFor(tx, rules);
    const now = ctx.clock.now();
    for (const rule of rules) {
      const run = runOf(rule, read, now.getTime());
      if (run) await passRule(tx, emit, rule, run, now, result);
    }
    return result;
  });
}

async function passRule<S>(
  tx: Queryable,
  emit: Emit,
  rule: AlertRule,
  run: RuleRun<S>,
  now: Date,
  result: IncidentPassResult,
): Promise<void> {
  const incidents = new AlertRepository(tx);
  const deliveries = new AlertDeliveryRepository(tx);
  const since = new Date(now.getTime() - run.historyMs);
  const known = await incidents.ofRule<S>(rule.id, since, run.column);
  const plan = planRule(run.watch, known, now.getTime());
  const keyOf = (subject: S) => run.watch.keyOf(subject);
  if (plan.newly.length > 0) {
    const gathering = known.find((incident) => incident.id === plan.joins);
    if (gathering) {
      await incidents.setSubjects(
        gathering.id,
        run.column,
        mergeSubjects(keyOf, gathering.subjects, plan.newly),
      );
      emit({ type: 'console', resource: 'alerts', id: gathering.id });
      result.opened.push(gathering.id);
    } else {
      const gatherUntil = new Date(now.getTime() + GATHER_MS);
      const subjects = mergeSubjects(keyOf, [], plan.newly);
      const id = await incidents.create(rule, run.column, subjects, now, gatherUntil);
      // The alert goes out once the incident has stopped gathering.
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
