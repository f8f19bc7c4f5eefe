import { CAP_SEVERITIES, type CapSeverity } from '../../src/shared/cap-feed';
import { CapFeedError, childrenOf, childText, type XmlNode } from './xml';

/**
 * A CAP 1.2 `<alert>` as the feeds read it: the fields that decide whether it raises an override
 * and what the override says. Everything else of CAP (resources, parameters, polygons) is left.
 */

export interface CapArea {
  description: string;
  /** The `<value>` of each `<geocode>`. */
  geocodes: string[];
}

export interface CapInfo {
  event: string;
  severity: CapSeverity;
  headline: string;
  description: string;
  instruction: string;
  /** Milliseconds; null when the info has none, or one without a time offset (CAP requires one). */
  expires: number | null;
  areas: CapArea[];
}

export interface CapAlert {
  identifier: string;
  sender: string;
  /** `Actual`, `Exercise`, `System`, `Test` or `Draft`. */
  status: string;
  /** `Alert`, `Update`, `Cancel`, `Ack` or `Error`. */
  msgType: string;
  /** The identifiers of the earlier alerts it updates or cancels (`<references>`). */
  references: string[];
  infos: CapInfo[];
}

/** CAP's dateTime: `2026-11-27T09:00:00-00:00`; the offset is required (without, it is no instant). */
const CAP_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z)$/;

export function capTime(text: string): number | null {
  if (!CAP_TIME.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

/** An unknown or missing severity is CAP's `Unknown`, the lowest. */
function severityOf(text: string): CapSeverity {
  return CAP_SEVERITIES.find((severity) => severity.toLowerCase() === text.toLowerCase()) ?? 'Unknown';
}

/**
 * `<references>`: whitespace-separated `sender,identifier,sent` triples; the identifier of each.
 * An identifier may not hold a comma or a space in CAP, so the middle field is it.
 */
export function referencedIdentifiers(text: string): string[] {
  return text
    .split(/\s+/)
    .map((triple) => triple.split(','))
    .flatMap((fields) => (fields.length >= 3 && fields[1] ? [fields[1]] : []));
}

function infoOf(node: XmlNode): CapInfo {
  return {
    event: childText(node, 'event'),
    severity: severityOf(childText(node, 'severity')),
    headline: childText(node, 'headline'),
    description: childText(node, 'description'),
    instruction: childText(node, 'instruction'),
    expires: capTime(childText(node, 'expires')),
    areas: childrenOf(node, 'area').map((area) => ({
      description: childText(area, 'areaDesc'),
      geocodes: childrenOf(area, 'geocode')
        .map((geocode) => childText(geocode, 'value'))
        .filter(Boolean),
    })),
  };
}

/**
 * Reads a parsed `<alert>` element; a CapFeedError naming what is missing when it lacks what
 * every CAP alert has (`identifier`, `status`, `msgType`).
 */
export function readAlert(node: XmlNode, where = 'the alert'): CapAlert {
  const identifier = childText(node, 'identifier');
  const status = childText(node, 'status');
  const msgType = childText(node, 'msgType');
  const missing = [
    ['identifier', identifier],
    ['status', status],
    ['msgType', msgType],
  ].find(([, value]) => !value);
  if (missing) throw new CapFeedError(`${where} is not CAP: it has no <${missing[0]}>`);
  return {
    identifier,
    sender: childText(node, 'sender'),
    status,
    msgType,
    references: referencedIdentifiers(childText(node, 'references')),
    infos: childrenOf(node, 'info').map(infoOf),
  };
}
