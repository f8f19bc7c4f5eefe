import { readAlert, type CapAlert } from './alert';
import { attributeOf, CapFeedError, childrenOf, childText, parseXml, type XmlNode } from './xml';

/**
 * What one fetched document holds: a CAP `<alert>` itself, or an Atom or RSS feed whose entries
 * carry CAP alerts inside them or link to them. An entry with neither (a note, a feed's
 * announcement) is passed over.
 */
export interface CapDocument {
  /** The alerts carried in the document. */
  alerts: CapAlert[];
  /** The absolute http(s) addresses of the alerts its entries link to, to be fetched. */
  links: string[];
}

/** An alert inside an entry: in its `<content>` (as Atom carries XML), or right in the entry. */
function embeddedAlert(entry: XmlNode): XmlNode | undefined {
  return childrenOf(childrenOf(entry, 'content')[0], 'alert')[0] ?? childrenOf(entry, 'alert')[0];
}

const isCapType = (type: string) => /cap/i.test(type);

/** An Atom entry's link to its alert: one typed as CAP first, else its plain (alternate) link. */
function atomLink(entry: XmlNode): string {
  const links = childrenOf(entry, 'link').filter((link) => attributeOf(link, 'href'));
  const cap = links.find((link) => isCapType(attributeOf(link, 'type')));
  const plain = links.find((link) => ['', 'alternate'].includes(attributeOf(link, 'rel')));
  return attributeOf(cap ?? plain ?? {}, 'href');
}

/** An RSS item's link to its alert: an enclosure typed as CAP first, else its `<link>`. */
function rssLink(item: XmlNode): string {
  const enclosure = childrenOf(item, 'enclosure').find((e) => isCapType(attributeOf(e, 'type')));
  return enclosure ? attributeOf(enclosure, 'url') : childText(item, 'link');
}

/** `href` made absolute against the feed's address; only http(s) is followed. */
function absolute(href: string, base: string, entry: number): string {
  const url = URL.parse(href.trim(), base);
  if (!url || !['http:', 'https:'].includes(url.protocol))
    throw new CapFeedError(`entry ${entry} links to "${href.slice(0, 200)}", which is no http(s) address`);
  return url.toString();
}

function readEntries(entries: XmlNode[], base: string, linkOf: (entry: XmlNode) => string): CapDocument {
  const found: CapDocument = { alerts: [], links: [] };
  entries.forEach((entry, i) => {
    const alert = embeddedAlert(entry);
    if (alert) {
      found.alerts.push(readAlert(alert, `the alert of entry ${i + 1}`));
      return;
    }
    const href = linkOf(entry);
    if (href) found.links.push(absolute(href, base, i + 1));
  });
  return found;
}

/** Reads the document fetched from `url`; a CapFeedError when it is none of the three. */
export function readDocument(text: string, url: string): CapDocument {
  const root = parseXml(text);
  const [alert] = childrenOf(root, 'alert');
  if (alert) return { alerts: [readAlert(alert)], links: [] };
  const [feed] = childrenOf(root, 'feed');
  if (feed) return readEntries(childrenOf(feed, 'entry'), url, atomLink);
  const [rss] = childrenOf(root, 'rss');
  if (rss) return readEntries(childrenOf(childrenOf(rss, 'channel')[0], 'item'), url, rssLink);
  const name = Object.keys(root).find((key) => !key.startsWith('#') && !key.startsWith('@_'));
  throw new CapFeedError(
    `the document is neither a CAP alert nor an Atom or RSS feed${name ? ` (its root is <${name}>)` : ''}`,
  );
}

/** Reads a document an entry linked to, which must be one CAP alert. */
export function readLinkedAlert(text: string, url: string): CapAlert {
  const [alert] = childrenOf(parseXml(text), 'alert');
  if (!alert) throw new CapFeedError(`${url.slice(0, 200)} is not a CAP alert`);
  return readAlert(alert, `the alert at ${url.slice(0, 200)}`);
}
