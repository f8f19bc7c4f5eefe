import type {
  AlertDelivery,
  AlertDestination,
  AlertDestinationKind,
  AlertRule,
} from '../../../../src/shared/alert';

/**
 * Alerts said in an operator's words rather than the API's: who is told, which screens a rule
 * watches and after how long, how each message went. Pure, so the page and its tests agree.
 */

export const KIND_LABEL: Record<AlertDestinationKind, string> = {
  webhook: 'Webhook',
  email: 'E-mail',
  slack: 'Slack',
  teams: 'Microsoft Teams',
};

/** What a destination is, said after its name ("NOC webhook"). */
const KIND_NOUN: Record<AlertDestinationKind, string> = {
  webhook: 'webhook',
  email: 'e-mail',
  slack: 'Slack',
  teams: 'Teams',
};

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** "5 minutes", "1 hour 30 minutes", "10 seconds": how people say a rule's time. */
export function durationWords(seconds: number): string {
  const parts: string[] = [];
  let rest = Math.max(0, Math.round(seconds));
  for (const [unit, size] of [
    ['day', 86_400],
    ['hour', 3600],
    ['minute', 60],
    ['second', 1],
  ] as const) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0) parts.push(plural(count, unit));
  }
  return parts.join(' ') || '0 seconds';
}

/** A list of names that stays readable however long it is: "a, b, c and 4 more". */
export function listWords(names: readonly string[], shown = 3): string {
  if (names.length <= shown + 1) return names.join(', ');
  return `${names.slice(0, shown).join(', ')} and ${names.length - shown} more`;
}

/** Where a destination's messages go: a webhook's URL, the addresses, a Slack or Teams URL's hint. */
export function destinationWhere(destination: AlertDestination): string {
  if (destination.kind === 'email') return (destination.to ?? []).join(', ');
  return destination.url ?? destination.url_hint ?? '';
}

/** How a rule or a message names a destination: its name and kind, or else where it goes. */
export function destinationLabel(destination: AlertDestination): string {
  const noun = KIND_NOUN[destination.kind];
  const name = destination.name.trim();
  if (name) return name.toLowerCase().includes(noun.toLowerCase()) ? name : `${name} ${noun}`;
  if (destination.kind === 'email') return listWords(destination.to ?? [], 2);
  if (destination.kind === 'webhook' && destination.url) {
    return `webhook to ${URL.canParse(destination.url) ? new URL(destination.url).host : destination.url}`;
  }
  return `${noun} ${destination.url_hint ?? ''}`.trim();
}

/** What the rule sentence needs to name groups, screens and destinations. */
export interface Names {
  groups: ReadonlyMap<string, string>;
  /** A screen's name by its tag. */
  screens: ReadonlyMap<string, string>;
  destinations: ReadonlyMap<string, AlertDestination>;
}

export function targetWords(target: AlertRule['target'], names: Names): string {
  if ('group_id' in target) return `Screens of group ${names.groups.get(target.group_id) ?? target.group_id}`;
  if ('device_tag' in target) {
    const name = names.screens.get(target.device_tag);
    return name && name !== target.device_tag
      ? `Screen ${name} (${target.device_tag})`
      : `Screen ${target.device_tag}`;
  }
  return 'Any screen';
}

/** Who a rule tells; a destination deleted since is left out, as the service leaves it out. */
export function recipientsWords(ids: readonly string[], names: Names): string {
  const labels = ids.flatMap((id) => {
    const destination = names.destinations.get(id);
    return destination ? [destinationLabel(destination)] : [];
  });
  return labels.length > 0 ? labels.join(', ') : 'nobody: its destinations were deleted';
}

/** "Screens of group Lobby offline for 5 minutes → NOC webhook, ops@example.com". */
export function ruleWords(rule: AlertRule, names: Names): string {
  return `${targetWords(rule.target, names)} offline for ${durationWords(rule.after_seconds)} → ${recipientsWords(rule.destination_ids, names)}`;
}

export type DeliveryState = 'delivered' | 'waiting' | 'retrying' | 'failed';

/** Where a message is, as the history says it; a colour beside the word, never alone. */
export function deliveryState(delivery: AlertDelivery): {
  state: DeliveryState;
  label: string;
  color: string;
} {
  if (delivery.status === 'delivered') return { state: 'delivered', label: 'Delivered', color: 'green' };
  if (delivery.status === 'failed') return { state: 'failed', label: 'Failed', color: 'red' };
  if (delivery.attempts > 0) return { state: 'retrying', label: 'Retrying', color: 'orange' };
  return { state: 'waiting', label: 'Waiting', color: 'gray' };
}

/** The message's kind: the alert, or the recovery that follows it. */
export const phaseWords = (delivery: AlertDelivery) => (delivery.phase === 'firing' ? 'Alert' : 'Recovery');

/** Why a message is being retried or was given up, in a sentence; empty when there is nothing to add. */
export function deliveryProblem(delivery: AlertDelivery): string {
  const { state } = deliveryState(delivery);
  if (state !== 'retrying' && state !== 'failed') return '';
  const tries = plural(delivery.attempts, 'attempt');
  const why = delivery.last_error ? `: ${delivery.last_error}` : '';
  return state === 'failed' ? `Given up after ${tries}${why}` : `${tries} so far${why}`;
}
