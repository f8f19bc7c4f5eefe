/**
 * CAP 1.2 documents written for the tests, as a sender would publish them: one `<alert>`, and the
 * Atom and RSS feeds that carry or link alerts.
 */

export interface AreaSpec {
  desc: string;
  geocodes?: { name: string; value: string }[];
}

export interface InfoSpec {
  event?: string;
  severity?: string;
  headline?: string;
  description?: string;
  instruction?: string;
  expires?: string;
  areas?: AreaSpec[];
  language?: string;
}

export interface AlertSpec {
  identifier: string;
  sender?: string;
  sent?: string;
  status?: string;
  msgType?: string;
  /** Identifiers of earlier alerts (of the same sender, sent at `sent`). */
  references?: string[];
  infos?: InfoSpec[];
}

const escape = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

const element = (name: string, value: string | undefined) =>
  value === undefined ? '' : `<${name}>${escape(value)}</${name}>`;

function infoXml(info: InfoSpec): string {
  const areas = (info.areas ?? [{ desc: 'Everywhere' }])
    .map(
      (area) =>
        `<area>${element('areaDesc', area.desc)}${(area.geocodes ?? [])
          .map(
            (code) => `<geocode>${element('valueName', code.name)}${element('value', code.value)}</geocode>`,
          )
          .join('')}</area>`,
    )
    .join('');
  return [
    '<info>',
    element('language', info.language ?? 'en-US'),
    '<category>Met</category>',
    element('event', info.event ?? 'Storm'),
    '<urgency>Immediate</urgency>',
    element('severity', info.severity ?? 'Severe'),
    '<certainty>Observed</certainty>',
    element('expires', info.expires),
    element('headline', info.headline),
    element('description', info.description),
    element('instruction', info.instruction),
    areas,
    '</info>',
  ].join('');
}

/** The `<alert>` element alone, namespaced, without an XML declaration. */
export function alertElement(alert: AlertSpec): string {
  const sender = alert.sender ?? 'alerts@example.test';
  const sent = alert.sent ?? '2026-11-27T08:55:00-00:00';
  const references = alert.references?.map((id) => `${sender},${id},${sent}`).join(' ');
  return [
    '<alert xmlns="urn:oasis:names:tc:emergency:cap:1.2">',
    element('identifier', alert.identifier),
    element('sender', sender),
    element('sent', sent),
    element('status', alert.status ?? 'Actual'),
    element('msgType', alert.msgType ?? 'Alert'),
    '<scope>Public</scope>',
    element('references', references),
    ...(alert.infos ?? [{}]).map(infoXml),
    '</alert>',
  ].join('');
}

export function capDocument(alert: AlertSpec): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${alertElement(alert)}`;
}

/** An Atom feed: each entry carries its alert in `<content>` or links to it (`href`). */
export function atomFeed(entries: ({ alert: AlertSpec } | { href: string; type?: string })[]): string {
  const body = entries
    .map((entry, i) => {
      const inner =
        'alert' in entry
          ? `<content type="text/xml">${alertElement(entry.alert)}</content>`
          : `<link rel="alternate" type="${entry.type ?? 'application/cap+xml'}" href="${escape(entry.href)}"/>`;
      return `<entry><id>urn:test:entry:${i}</id><title>Entry ${i}</title><updated>2026-11-27T08:55:00Z</updated>${inner}</entry>`;
    })
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><id>urn:test:feed</id><title>Test alerts</title><updated>2026-11-27T08:55:00Z</updated>
${body}
</feed>`;
}

/** An RSS 2.0 channel whose items link to their alerts. */
export function rssFeed(links: string[]): string {
  const items = links
    .map((link, i) => `<item><title>Item ${i}</title><link>${escape(link)}</link></item>`)
    .join('');
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>Test alerts</title>${items}</channel></rss>`;
}
