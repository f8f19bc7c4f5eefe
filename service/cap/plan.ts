import { atLeast, type CapSeverity } from '../../src/shared/cap-feed';
import { OVERRIDE_MESSAGE_MAX, OVERRIDE_TITLE_MAX } from '../../src/shared/override';
import type { CapAlert, CapInfo } from './alert';

/**
 * What one poll does to a feed's overrides, from what the feed holds now and what it raised
 * before: the rules of docs/api/overrides.md ("CAP feeds"), apart from any store or HTTP.
 */

/** Which alerts a feed takes. */
export interface CapFilter {
  min_severity: CapSeverity;
  /** Empty: any area. */
  areas: readonly string[];
}

/** An override the feed raised before. */
export interface KnownOverride {
  id: string;
  cap_identifier: string;
  /** Neither cleared nor expired. */
  inForce: boolean;
}

/** An override to raise for an alert. */
export interface OverrideDraft {
  cap_identifier: string;
  title: string;
  message: string;
  background_color: string;
  expires_at: string | null;
}

export interface CapPlan {
  raise: OverrideDraft[];
  /** The ids of the overrides to clear. */
  clear: string[];
}

/** The screens' colour per severity: the alarm's red for the gravest, paler urgency below it. */
export const SEVERITY_COLORS: Readonly<Record<CapSeverity, string>> = {
  Extreme: '#b00020',
  Severe: '#c2410c',
  Moderate: '#a16207',
  Minor: '#1d4ed8',
  Unknown: '#4b5563',
};

const fold = (text: string) => text.normalize('NFC').toLowerCase();

/**
 * Whether the info is of one of the feed's areas: an `<areaDesc>` that contains one of them, or a
 * `<geocode>` value that is one of them, letter case aside.
 */
export function inAreas(info: CapInfo, areas: readonly string[]): boolean {
  if (areas.length === 0) return true;
  const wanted = areas.map(fold);
  return info.areas.some(
    (area) =>
      wanted.some((term) => fold(area.description).includes(term)) ||
      area.geocodes.some((code) => wanted.includes(fold(code))),
  );
}

/** The first `<info>` the feed takes at `now`: grave enough, of its areas, not expired. */
export function chosenInfo(alert: CapAlert, filter: CapFilter, now: number): CapInfo | undefined {
  return alert.infos.find(
    (info) =>
      atLeast(info.severity, filter.min_severity) &&
      inAreas(info, filter.areas) &&
      (info.expires === null || info.expires > now),
  );
}

/**
 * Text fit for a screen and the store: no control characters but line breaks and tabs (NUL among
 * them), no lone surrogates, at most `max` characters with an ellipsis where it was cut.
 */
export function screenText(text: string, max: number, oneLine = false): string {
  let clean = text
    // eslint-disable-next-line no-control-regex -- what is removed is exactly the control characters.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')
    .replace(/\r\n?/g, '\n');
  clean = (clean as string & { toWellFormed(): string }).toWellFormed();
  clean = oneLine ? clean.replace(/\s+/g, ' ') : clean.replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n');
  clean = clean.trim();
  if (clean.length <= max) return clean;
  // The limit counts UTF-16 units, as the schemas do; a pair is not cut in half.
  let cut = clean.slice(0, max - 1);
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

/** The override an alert's chosen info makes: its headline (or event), what to know and do. */
export function draftOf(alert: CapAlert, info: CapInfo): OverrideDraft {
  const title = screenText(info.headline || info.event || 'Emergency alert', OVERRIDE_TITLE_MAX, true);
  const body = [info.description, info.instruction].filter((part) => part.trim()).join('\n\n');
  return {
    cap_identifier: alert.identifier,
    title: title || 'Emergency alert',
    message:
      screenText(body || info.event || info.headline, OVERRIDE_MESSAGE_MAX) || title || 'Emergency alert',
    background_color: SEVERITY_COLORS[info.severity],
    expires_at: info.expires === null ? null : new Date(info.expires).toISOString(),
  };
}

/**
 * The plan of one poll:
 *
 * - an `Actual` alert of type `Alert` or `Update` that the feed takes raises one override, once
 *   per identifier: an identifier raised before is never raised again (cleared by hand, expired,
 *   or still in force alike);
 * - an `Update` or `Cancel` clears the overrides of the alerts it references, and those are not
 *   raised even while they are still in the feed beside it;
 * - an override whose alert is no longer in the feed is cleared;
 * - what expired is left as it is: it ended by itself at its `expires_at`.
 */
export function planFeed(
  alerts: readonly CapAlert[],
  filter: CapFilter,
  known: readonly KnownOverride[],
  now: number,
): CapPlan {
  const actual = alerts.filter((alert) => alert.status.toLowerCase() === 'actual');
  const superseded = new Set(
    actual
      .filter((alert) => ['update', 'cancel'].includes(alert.msgType.toLowerCase()))
      .flatMap((alert) => alert.references),
  );
  const present = new Set(alerts.map((alert) => alert.identifier));
  const raisedBefore = new Set(known.map((override) => override.cap_identifier));

  const raise: OverrideDraft[] = [];
  for (const alert of actual) {
    if (!['alert', 'update'].includes(alert.msgType.toLowerCase())) continue;
    if (superseded.has(alert.identifier) || raisedBefore.has(alert.identifier)) continue;
    const info = chosenInfo(alert, filter, now);
    if (!info) continue;
    // An identifier twice in one feed raises once.
    raisedBefore.add(alert.identifier);
    raise.push(draftOf(alert, info));
  }
  const clear = known
    .filter(
      (override) =>
        override.inForce &&
        (!present.has(override.cap_identifier) || superseded.has(override.cap_identifier)),
    )
    .map((override) => override.id);
  return { raise, clear };
}
