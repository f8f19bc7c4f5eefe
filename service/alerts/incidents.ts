/**
 * How incidents are opened, joined and resolved (docs/alerts.md), whatever their event: pure
 * functions of what one pass of the alert job read. Each event says which of its subjects (screens,
 * scripts) qualify now and which are back (`EventWatch`, in screens.ts and scripts.ts); the pass
 * (alerts/incident-pass.ts) writes what `planRule` decides.
 */

/** An incident of the rule: firing, or resolved (at `resolvedAt`, ms), with what it names. */
export interface IncidentView<S> {
  id: string;
  status: 'firing' | 'resolved';
  subjects: S[];
  gatherUntil: number;
  resolvedAt: number | null;
}

/** What an event's rule reads of its subjects at one pass. */
export interface EventWatch<S> {
  /** The subject's key: a screen's tag, a script's id. */
  keyOf(subject: S): string;
  /**
   * The subjects that qualify now. `lastResolved` holds, by key, when the latest resolved
   * incident of the rule naming the subject was resolved (ms): each event's rule against flapping.
   */
  qualifying(lastResolved: ReadonlyMap<string, number>): S[];
  /** Whether a subject of a firing incident is back (or gone), as the incident names it. */
  isBack(subject: S): boolean;
}

/** What a pass does for one rule. */
export interface RulePlan<S> {
  /** Subjects that newly qualify, added to the incident still gathering (`joins`) or to a new one. */
  newly: S[];
  /** The firing incident that is still gathering subjects, which the newly qualifying join. */
  joins: string | null;
  /** Firing incidents whose every subject is back (or gone). */
  resolve: string[];
}

/**
 * How long after the first subject of an incident qualifies its alert goes out: subjects that
 * qualify meanwhile join it. A site's power cut silences its screens within one heartbeat period
 * of each other, so they qualify over some seconds, not in one pass; this window makes them one
 * message. An alert is thus up to this much later than its rule's time.
 */
export const GATHER_MS = 15_000;

/** By key, when the latest resolved incident naming the subject was resolved. */
export function lastResolvedOf<S>(
  incidents: readonly IncidentView<S>[],
  keyOf: (subject: S) => string,
): Map<string, number> {
  const last = new Map<string, number>();
  for (const incident of incidents) {
    if (incident.status !== 'resolved' || incident.resolvedAt === null) continue;
    for (const subject of incident.subjects) {
      const key = keyOf(subject);
      last.set(key, Math.max(last.get(key) ?? 0, incident.resolvedAt));
    }
  }
  return last;
}

/**
 * One rule's pass. A subject already named by a firing incident of the rule is not alerted again
 * (one alert per incident). A firing incident is resolved once each of its subjects is back, and
 * never while it is still gathering (its alert has not gone out yet).
 */
export function planRule<S>(
  watch: EventWatch<S>,
  incidents: readonly IncidentView<S>[],
  now: number,
): RulePlan<S> {
  const firing = incidents.filter((incident) => incident.status === 'firing');
  const alerted = new Set(firing.flatMap((incident) => incident.subjects.map((s) => watch.keyOf(s))));
  const newly = watch
    .qualifying(lastResolvedOf(incidents, (s) => watch.keyOf(s)))
    .filter((subject) => !alerted.has(watch.keyOf(subject)));
  const gathering = firing.find((incident) => incident.gatherUntil > now);
  const resolve = firing
    .filter((incident) => incident.gatherUntil <= now)
    .filter((incident) => incident.subjects.every((subject) => watch.isBack(subject)))
    .map((incident) => incident.id);
  return { newly, joins: gathering?.id ?? null, resolve };
}

/** Subjects by key, without repeats (the newer one kept), sorted by key. */
export function mergeSubjects<S>(keyOf: (subject: S) => string, a: readonly S[], b: readonly S[]): S[] {
  const byKey = new Map([...a, ...b].map((subject) => [keyOf(subject), subject]));
  return [...byKey.entries()].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([, subject]) => subject);
}
