import { createHmac } from 'node:crypto';
import type { AlertEvent, AlertStatus } from '../../src/shared/alert';
import type { Screen } from './incidents';

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
}

/** Screens named in a message's text: past this, "and N more" (the JSON body names them all). */
const NAMED_IN_TEXT = 500;

function screenList(screens: readonly Screen[]): string {
  const named = screens
    .slice(0, NAMED_IN_TEXT)
    .map((screen) =>
      screen.name && screen.name !== screen.tag ? `${screen.name} (${screen.tag})` : screen.tag,
    );
  const more = screens.length - named.length;
  return more > 0 ? `${named.join(', ')} and ${more} more` : named.join(', ');
}

const count = (n: number) => (n === 1 ? '1 screen' : `${n} screens`);

/** One line to read: what happened, since when, and which screens. */
export function alertText(message: AlertMessage): string {
  const { alert, screens } = message;
  if (alert.status === 'firing') {
    return `Wallboard: ${count(screens.length)} offline since ${alert.started_at}: ${screenList(screens)}`;
  }
  return `Wallboard: back online at ${alert.resolved_at ?? ''}, ${count(screens.length)}: ${screenList(screens)}`;
}

export function alertSubject(message: AlertMessage): string {
  const n = message.screens.length;
  const what = message.alert.status === 'firing' ? 'offline' : 'back online';
  const first = message.screens[0];
  const who = n === 1 && first ? `${first.name || first.tag} is` : `${count(n)} are`;
  return `[Wallboard] ${who} ${what}`;
}

/** The generic webhook's body: the alert, the screens with their names, and the line to read. */
export function webhookBody(message: AlertMessage): string {
  return JSON.stringify({ alert: message.alert, screens: message.screens, text: alertText(message) });
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
