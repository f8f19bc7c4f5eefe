import type { FormErrors } from '@mantine/form';
import {
  ALERT_AFTER_SECONDS,
  ALERT_SCRIPT_FAILURES,
  type AlertDestinationKind,
  type AlertEvent,
  type AlertScreenTarget,
} from '../../../../src/shared/alert';

/**
 * The alert forms' fields, the bodies they send, and the errors of those bodies (the shared
 * schema's, or the service's) put back on the field an operator typed in: the API's paths
 * (`to.2`, `target.group_id`, `after_seconds`, `failures`) are not the form's.
 */

export interface DestinationFields {
  kind: AlertDestinationKind;
  name: string;
  url: string;
  secret: string;
  /** E-mail addresses, one a line or separated by commas. */
  to: string;
}

/** The addresses typed, in order, blanks dropped. */
export const addressesOf = (to: string) =>
  to
    .split(/[\s,;]+/)
    .map((address) => address.trim())
    .filter(Boolean);

export function destinationBody(values: DestinationFields) {
  const name = values.name.trim() || undefined;
  const url = values.url.trim();
  switch (values.kind) {
    case 'webhook':
      return { kind: values.kind, name, url, secret: values.secret };
    case 'email':
      return { kind: values.kind, name, to: addressesOf(values.to) };
    default:
      return { kind: values.kind, name, url };
  }
}

/** `to.1` is the second address: said on the addresses' field, naming the address. */
export function destinationFieldErrors(errors: FormErrors, values: DestinationFields): FormErrors {
  const addresses = addressesOf(values.to);
  const out: FormErrors = {};
  for (const [path, message] of Object.entries(errors)) {
    const address = /^to\.(\d+)$/.exec(path);
    if (address) out.to ??= `${addresses[Number(address[1])] ?? 'an address'}: ${String(message)}`;
    else out[path] ??= message;
  }
  return out;
}

/**
 * A webhook's signing secret: 32 random bytes as hex, far past the 16 characters the service
 * asks for. Made in the browser, so it crosses the wire once, in the request that stores it.
 */
export function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Screens: every one, a group's, one; scripts: every one, one. */
export type TargetChoice = 'all' | 'group' | 'screen' | 'script';

/** The choices of target each event offers (a node rule watches every node: it has none). */
export const TARGET_CHOICES: Record<AlertEvent, readonly TargetChoice[]> = {
  'device.offline': ['all', 'group', 'screen'],
  'device.failing': ['all', 'group', 'screen'],
  'script.failing': ['all', 'script'],
  'node.unwritable': ['all'],
};

/** The units an operator picks the rule's time in; stored as seconds. */
export const UNIT_SECONDS = { seconds: 1, minutes: 60, hours: 3600 } as const;
export type Unit = keyof typeof UNIT_SECONDS;

export interface RuleFields {
  event: AlertEvent;
  amount: number | string;
  unit: Unit;
  which: TargetChoice;
  group_id: string;
  device_tag: string;
  script_id: string;
  /** script.failing: failed runs in a row. */
  failures: number | string;
  destination_ids: string[];
}

function screenTarget(values: RuleFields): AlertScreenTarget {
  if (values.which === 'group') return { group_id: values.group_id };
  if (values.which === 'screen') return { device_tag: values.device_tag };
  return { all: true };
}

// 1.5 minutes is 90 s; a fraction of a second is no one's intent.
const secondsOf = (values: RuleFields) =>
  values.amount === '' ? Number.NaN : Math.round(Number(values.amount) * UNIT_SECONDS[values.unit]);

/** The body of the event chosen: only the fields that event takes. */
export function ruleBody(values: RuleFields) {
  const destination_ids = values.destination_ids;
  switch (values.event) {
    case 'script.failing':
      return {
        event: values.event,
        failures: values.failures === '' ? Number.NaN : Number(values.failures),
        target: values.which === 'script' ? { script_id: values.script_id } : { all: true as const },
        destination_ids,
      };
    case 'node.unwritable':
      return {
        event: values.event,
        after_seconds: secondsOf(values),
        target: { all: true as const },
        destination_ids,
      };
    default:
      return {
        event: values.event,
        after_seconds: secondsOf(values),
        target: screenTarget(values),
        destination_ids,
      };
  }
}

const BOUNDS = `Between ${ALERT_AFTER_SECONDS.min} seconds and a week`;
const RUNS = `Between ${ALERT_SCRIPT_FAILURES.min} and ${ALERT_SCRIPT_FAILURES.max} runs`;

/** The field a target is chosen with, and what to say while nothing is chosen in it. */
const CHOSEN_WITH: Partial<Record<TargetChoice, { field: keyof RuleFields; noun: string }>> = {
  group: { field: 'group_id', noun: 'a group' },
  screen: { field: 'device_tag', noun: 'a screen' },
  script: { field: 'script_id', noun: 'a script' },
};

/**
 * A refused target goes to the list the operator chooses from: "Choose a group" while none is
 * chosen (the schema's words are written for developers), else the service's reason. The time,
 * the runs and the destinations are said in the form's words.
 */
export function ruleFieldErrors(errors: FormErrors, values: RuleFields): FormErrors {
  const out: FormErrors = {};
  const chosenWith = CHOSEN_WITH[values.which];
  const field = chosenWith?.field ?? 'which';
  const unchosen = chosenWith !== undefined && !values[chosenWith.field];
  for (const [path, message] of Object.entries(errors)) {
    if (path === 'after_seconds') out.amount ??= BOUNDS;
    else if (path === 'failures') out.failures ??= RUNS;
    else if (path === 'target' || path.startsWith('target.')) {
      out[field] ??= unchosen ? `Choose ${chosenWith.noun}` : message;
    } else if (path.startsWith('destination_ids')) {
      out.destination_ids ??=
        values.destination_ids.length === 0 ? 'Choose at least one destination' : message;
    } else out[path] ??= message;
  }
  return out;
}
