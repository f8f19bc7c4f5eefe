import { createHmac } from 'node:crypto';
import type { AlertEvent, AlertNode, AlertScript, AlertStatus } from '../../src/shared/alert';
import type { Failure } from '../../src/shared/device';
import type { Screen } from './screens';

/**
 * What an alert says, in each destination's shape (docs/alerts.md). Built from the incident and
 * the phase of the delivery, so a retry sends the same words: the alert of an incident that has
 * since resolved still says `firing`, and its recovery follows it.
 */
export interface AlertMessage {
  alert: {
    id: string;
    event: AlertEvent;
    status: AlertStatus;
    devices: string[];
    started_at: string;
    resolved_at?: string;
  };
  screens: Screen[];
  /** script.failing: the scripts. */
  scripts?: AlertScript[];
  /** node.unwritable: the node. */
  node?: AlertNode;
}

/** Screens named in a message's text: past this, "and N more" (the JSON body names them all). */
const NAMED_IN_TEXT = 500;
/** A failing screen's items named in the text, and how much of an item's URL or reason. */
const ITEMS_IN_TEXT = 3;
const ITEM_CHARS = 200;

const cut = (text: string) => (text.length > ITEM_CHARS ? `${text.slice(0, ITEM_CHARS - 1)}…` : text);

function named<T>(all: readonly T[], say: (one: T) => string, max: number, separator = ', '): string {
  const words = all.slice(0, max).map(say);
  const more = all.length - words.length;
  return more > 0 ? `${words.join(separator)} and ${more} more` : words.join(separator);
}

const screenName = (screen: Screen) =>
  screen.name && screen.name !== screen.tag ? `${screen.name} (${screen.tag})` : screen.tag;

const screenList = (screens: readonly Screen[]) => named(screens, screenName, NAMED_IN_TEXT);

const failureWords = (failure: Failure) => `${cut(failure.item)} (${cut(failure.reason)})`;

/** "Lobby (lobby): video:https://… (decode error), media:… (404)". */
const failingScreen = (screen: Screen) =>
  `${screenName(screen)}: ${named(screen.failures ?? [], failureWords, ITEMS_IN_TEXT)}`;

const scriptName = (script: AlertScript) => `${script.name} (${script.id})`;

const failingScript = (script: AlertScript) =>
  `${scriptName(script)} failed ${script.failures} ${script.failures === 1 ? 'run' : 'runs in a row'}, the last ${script.reason}`;

const count = (n: number, noun = 'screen') => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** One line to read: what happened, since when, and what it is about. */
export function alertText(message: AlertMessage): string {
  const { alert, screens, scripts = [], node } = message;
  const firing = alert.status === 'firing';
  const resolved = alert.resolved_at ?? '';
  switch (alert.event) {
    case 'device.offline':
      return firing
        ? `Wallboard: ${count(screens.length)} offline since ${alert.started_at}: ${screenList(screens)}`
        : `Wallboard: back online at ${resolved}, ${count(screens.length)}: ${screenList(screens)}`;
    case 'device.failing':
      return firing
        ? `Wallboard: ${count(screens.length)} failing to show items since ${alert.started_at}: ${named(screens, failingScreen, NAMED_IN_TEXT, '; ')}`
        : `Wallboard: showing their items again at ${resolved}, ${count(screens.length)}: ${screenList(screens)}`;
    case 'script.failing':
      return firing
        ? `Wallboard: ${count(scripts.length, 'script')} failing since ${alert.started_at}: ${named(scripts, failingScript, NAMED_IN_TEXT, '; ')}`
        : `Wallboard: running again at ${resolved}, ${count(scripts.length, 'script')}: ${named(scripts, scriptName, NAMED_IN_TEXT)}`;
    case 'node.unwritable': {
      const which = `service node ${node?.id ?? 'unknown'}`;
      return firing
        ? `Wallboard: ${which} cannot write its data since ${node?.since ?? alert.started_at}: ${node?.reason ?? 'writes fail'}; it refuses changes and heartbeats until it can`
        : `Wallboard: ${which} writes its data again at ${resolved}`;
    }
  }
}

export function alertSubject(message: AlertMessage): string {
  const { alert, screens, scripts = [] } = message;
  const firing = alert.status === 'firing';
  const first = screens[0];
  const one = screens.length === 1 && first ? first.name || first.tag : null;
  switch (alert.event) {
    case 'device.offline':
      return `[Wallboard] ${one ? `${one} is` : `${count(screens.length)} are`} ${firing ? 'offline' : 'back online'}`;
    case 'device.failing':
      if (firing)
        return `[Wallboard] ${one ? `${one} is` : `${count(screens.length)} are`} failing to show items`;
      return `[Wallboard] ${one ? `${one} is showing its` : `${count(screens.length)} are showing their`} items again`;
    case 'script.failing': {
      const script = scripts.length === 1 ? scripts[0] : undefined;
      if (firing)
        return `[Wallboard] ${script ? `Script ${script.name} is` : `${count(scripts.length, 'script')} are`} failing`;
      return `[Wallboard] ${script ? `Script ${script.name} runs` : `${count(scripts.length, 'script')} run`} again`;
    }
    case 'node.unwritable':
      return firing
        ? '[Wallboard] The service cannot write its data'
        : '[Wallboard] The service writes its data again';
  }
}

/**
 * The generic webhook's body: the alert, the screens with their names, the scripts or the node
 * when the event is about them, and the line to read.
 */
export function webhookBody(message: AlertMessage): string {
  const { alert, screens, scripts, node } = message;
  return JSON.stringify({
    alert,
    screens,
    ...(scripts ? { scripts } : {}),
    ...(node ? { node } : {}),
    text: alertText(message),
  });
}

/** A Slack incoming webhook's body. */
export function slackBody(message: AlertMessage): string {
  return JSON.stringify({ text: alertText(message) });
}

/** A Microsoft Teams incoming webhook's body (a MessageCard, which its connectors and workflows take). */
export function teamsBody(message: AlertMessage): string {
  return JSON.stringify({
    '@type': 'MessageCard',
    '@context': 'https://schema.org/extensions',
    summary: alertSubject(message),
    text: alertText(message),
  });
}

/** The header value of a signed webhook: `sha256=` and the hex HMAC-SHA256 of the raw body. */
export function signature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
