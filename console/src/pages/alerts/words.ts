import type {
  Alert,
  AlertDelivery,
  AlertDestination,
  AlertDestinationKind,
  AlertEvent,
  AlertRule,
} from '../../../../src/shared/alert';

/**
 * Alerts said in an operator's words rather than the API's: who is told, what a rule watches
 * and after how long, what an incident was about, how each message went. Pure, so the page and
 * its tests agree.
 */

/** Each event as the operator picks it. */
export const EVENT_LABEL: Record<AlertEvent, string> = {
  'device.offline': 'Screen offline',
  'device.failing': 'Screen failing to show items',
  'script.failing': 'Script failing',
  'node.unwritable': 'Service cannot write its data',
};

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

/** What the rule sentence needs to name groups, screens, scripts and destinations. */
export interface Names {
  groups: ReadonlyMap<string, string>;
  /** A screen's name by its tag. */
  screens: ReadonlyMap<string, string>;
  /** A script's name by its id. */
  scripts: ReadonlyMap<string, string>;
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
  if ('script_id' in target) return `Script ${names.scripts.get(target.script_id) ?? target.script_id}`;
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

/** When the rule fires, after what it watches: "offline for 5 minutes". */
function conditionWords(rule: AlertRule): string {
  const time = durationWords(rule.after_seconds ?? 0);
  switch (rule.event) {
    case 'device.offline':
      return `offline for ${time}`;
    case 'device.failing':
      return `failing to show items (a failure in the last ${time})`;
    case 'script.failing': {
      const runs = rule.failures ?? 1;
      return runs === 1 ? 'failing a run' : `failing ${runs} runs in a row`;
    }
    case 'node.unwritable':
      return `unable to write its data for ${time}`;
  }
}

/** "Screens of group Lobby offline for 5 minutes → NOC webhook, ops@example.com". */
export function ruleWords(rule: AlertRule, names: Names): string {
  const what =
    rule.event === 'node.unwritable'
      ? 'The service'
      : rule.event === 'script.failing' && 'all' in rule.target
        ? 'Any script'
        : targetWords(rule.target, names);
  return `${what} ${conditionWords(rule)} → ${recipientsWords(rule.destination_ids, names)}`;
}

/** What an incident was about, said as the history shows it. */
export interface IncidentWords {
  /** The event, as the operator picked it. */
  event: string;
  /** Its screens, scripts or node, in a few words. */
  about: string;
  /** All of them, for a title to hover. */
  inFull: string;
  /** What went wrong with each, a line each (failing items, a script's last error, the disk). */
  details: string[];
  /** The state while it lasts: "Still offline". */
  ongoing: string;
}

const ONGOING: Record<AlertEvent, string> = {
  'device.offline': 'Still offline',
  'device.failing': 'Still failing',
  'script.failing': 'Still failing',
  'node.unwritable': 'Still cannot write',
};

/** Details said at most: the rest is in the title and the messages. */
const DETAILS_SHOWN = 3;

export function incidentWords(incident: Alert): IncidentWords {
  const base = { event: EVENT_LABEL[incident.event], ongoing: ONGOING[incident.event] };
  if (incident.node) {
    const about = `Service node ${incident.node.id}`;
    return { ...base, about, inFull: about, details: [incident.node.reason] };
  }
  if (incident.scripts) {
    const scripts = incident.scripts;
    return {
      ...base,
      about: listWords(
        scripts.map((script) => script.name),
        5,
      ),
      inFull: scripts.map((script) => `${script.name} (${script.id})`).join(', '),
      details: scripts
        .slice(0, DETAILS_SHOWN)
        .map(
          (script) => `${script.name}: ${plural(script.failures, 'failed run')}, the last ${script.reason}`,
        ),
    };
  }
  const screens = incident.screens;
  return {
    ...base,
    about: listWords(
      screens.map((screen) => screen.name || screen.tag),
      5,
    ),
    inFull: screens.map((screen) => `${screen.name} (${screen.tag})`).join(', '),
    details: screens
      .flatMap((screen) =>
        (screen.failures ?? []).map(
          (failure) => `${screen.name || screen.tag}: ${failure.item} (${failure.reason})`,
        ),
      )
      .slice(0, DETAILS_SHOWN),
  };
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
