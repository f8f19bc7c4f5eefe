import type { FormErrors } from '@mantine/form';
import {
  ALERT_AFTER_SECONDS,
  type AlertDestinationKind,
  type AlertTarget,
} from '../../../../src/shared/alert';

/**
 * The alert forms' fields, the bodies they send, and the errors of those bodies (the shared
 * schema's, or the service's) put back on the field an operator typed in: the API's paths
 * (`to.2`, `target.group_id`, `after_seconds`) are not the form's.
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

export type TargetChoice = 'all' | 'group' | 'screen';

/** The units an operator picks the rule's time in; stored as seconds. */
export const UNIT_SECONDS = { seconds: 1, minutes: 60, hours: 3600 } as const;
export type Unit = keyof typeof UNIT_SECONDS;

export interface RuleFields {
  amount: number | string;
  unit: Unit;
  which: TargetChoice;
  group_id: string;
  device_tag: string;
  destination_ids: string[];
}

function targetOf(values: RuleFields): AlertTarget {
  if (values.which === 'group') return { group_id: values.group_id };
  if (values.which === 'screen') return { device_tag: values.device_tag };
  return { all: true };
}

export function ruleBody(values: RuleFields) {
  return {
    event: 'device.offline' as const,
    // 1.5 minutes is 90 s; a fraction of a second is no one's intent.
    after_seconds:
      values.amount === '' ? Number.NaN : Math.round(Number(values.amount) * UNIT_SECONDS[values.unit]),
    target: targetOf(values),
    destination_ids: values.destination_ids,
  };
}

const BOUNDS = `Between ${ALERT_AFTER_SECONDS.min} seconds and a week`;

/**
 * A refused target goes to the list the operator chooses from: "Choose a group" while none is
 * chosen (the schema's words are written for developers), else the service's reason. The time and
 * the destinations are said in the form's words.
 */
export function ruleFieldErrors(errors: FormErrors, values: RuleFields): FormErrors {
  const out: FormErrors = {};
  const field = values.which === 'group' ? 'group_id' : values.which === 'screen' ? 'device_tag' : 'which';
  const unchosen =
    (values.which === 'group' && !values.group_id) || (values.which === 'screen' && !values.device_tag);
  for (const [path, message] of Object.entries(errors)) {
    if (path === 'after_seconds') out.amount ??= BOUNDS;
    else if (path === 'target' || path.startsWith('target.')) {
      out[field] ??= unchosen ? `Choose ${values.which === 'group' ? 'a group' : 'a screen'}` : message;
    } else if (path.startsWith('destination_ids')) {
      out.destination_ids ??=
        values.destination_ids.length === 0 ? 'Choose at least one destination' : message;
    } else out[path] ??= message;
  }
  return out;
}
