import type { AlertScript, AlertScriptTarget } from '../../src/shared/alert';
import type { EventWatch } from './incidents';

/**
 * The rule of `script.failing` (docs/alerts.md): a script whose last `failures` runs all failed
 * (error, timeout or invalid), scheduled or by hand, qualifies; it is back at its next `ok` run,
 * or once deleted. The streak itself keeps a script that fails on and off from flapping: after
 * an `ok` run it must fail `failures` times again before it alerts again.
 */

/** What the pass reads of each script of the account: its streak of failed runs since its last ok one. */
export interface ScriptState {
  id: string;
  name: string;
  /** Failed runs since its last `ok` run (or since its first run). */
  streak: number;
  /** Why the newest of them failed: its outcome, and its error when it has one. */
  reason: string;
  /** The `seq` of its newest failed run, and of its newest `ok` run (null: none kept). */
  lastFailedSeq: number | null;
  lastOkSeq: number | null;
}

/**
 * A script as an incident names it; `seq`, the newest failed run when it joined, is kept in the
 * store only (an `ok` run after it is the recovery) and never shown.
 */
export type ScriptSubject = AlertScript & { seq: number };

export interface ScriptRule {
  failures: number;
  target: AlertScriptTarget;
}

export const scriptKey = (script: Pick<AlertScript, 'id'>) => script.id;

/** As the API and the messages show it. */
export const shownScript = ({ id, name, failures, reason }: ScriptSubject): AlertScript => ({
  id,
  name,
  failures,
  reason,
});

export function scriptWatch(rule: ScriptRule, scripts: readonly ScriptState[]): EventWatch<ScriptSubject> {
  const byId = new Map(scripts.map((script) => [script.id, script]));
  const { target } = rule;
  const watched = 'script_id' in target ? scripts.filter((s) => s.id === target.script_id) : scripts;
  return {
    keyOf: scriptKey,
    qualifying: () =>
      watched.flatMap((script) =>
        script.streak >= rule.failures && script.lastFailedSeq !== null
          ? [
              {
                id: script.id,
                name: script.name,
                failures: script.streak,
                reason: script.reason,
                seq: script.lastFailedSeq,
              },
            ]
          : [],
      ),
    isBack: (subject) => {
      const script = byId.get(subject.id);
      return !script || (script.lastOkSeq ?? 0) > subject.seq;
    },
  };
}
