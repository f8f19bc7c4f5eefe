import { XMLParser, XMLValidator, type X2jOptions } from 'fast-xml-parser';

/**
 * XML as the CAP feeds read it: fast-xml-parser, turned into plain objects, with no DTD at all.
 * CAP 1.2 documents, Atom and RSS never declare one, and a DTD is where entity expansion (the
 * "billion laughs") and external entities (a file or URL read into the document) come from; so a
 * document with `<!DOCTYPE` or `<!ENTITY` anywhere (a CDATA section quoting one too: rare, and
 * refused whole rather than parsed by a guess) is refused before parsing. The parser is then left
 * the entities that expand to one character each: XML's five, numeric character references, and
 * HTML's named ones (the flag that decodes the numeric ones brings them), with its own expansion
 * limits besides. Malformed XML is refused by the parser's validator first: the parser alone
 * would guess at it.
 */

/** Why a feed could not be read: the message is what `last_error` says. */
export class CapFeedError extends Error {
  override readonly name = 'CapFeedError';
}

/** Elements that may repeat in CAP, Atom or RSS, read as arrays always. */
const REPEATED = new Set(['alert', 'info', 'area', 'geocode', 'entry', 'item', 'link', 'enclosure']);

/** The parser's options: exported for the test that shows what it does with a DTD on its own. */
export const XML_OPTIONS: X2jOptions = {
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  // `cap:alert`, `atom:link`: names are read without their prefix (feeds use both forms).
  removeNSPrefix: true,
  // Every value stays text: a CAP identifier of digits is not a number.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // Numeric character references (`&#233;`) are decoded only with this flag in this version.
  htmlEntities: true,
  // Its own limits, should a declared entity ever get past the refusal of DTDs above.
  processEntities: { enabled: true, maxEntityCount: 1, maxTotalExpansions: 100, maxExpandedLength: 10_000 },
  isArray: (name) => REPEATED.has(name),
};
const parser = new XMLParser(XML_OPTIONS);

/** A parsed element: its children by name, its attributes as `@_name`, its text as `#text`. */
export type XmlNode = Record<string, unknown>;

/** Parses `text`; a CapFeedError saying why when it is not well-formed XML or declares a DTD. */
export function parseXml(text: string): XmlNode {
  if (/<!DOCTYPE|<!ENTITY/i.test(text))
    throw new CapFeedError('the document declares a DTD (<!DOCTYPE>), which CAP never does: refused');
  let valid: ReturnType<typeof XMLValidator.validate>;
  let parsed: XmlNode;
  try {
    valid = XMLValidator.validate(text);
    parsed = valid === true ? (parser.parse(text) as XmlNode) : {};
  } catch (error) {
    // A document nested deep enough to exhaust the stack lands here too, as any parser error.
    throw new CapFeedError(`the document could not be read as XML: ${(error as Error).message}`);
  }
  if (valid !== true)
    throw new CapFeedError(`the document is not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  return parsed;
}

/** The element's text: a bare string, or `#text` beside attributes; empty when there is none. */
export function textOf(node: unknown): string {
  if (typeof node === 'string') return node;
  if (Array.isArray(node)) return textOf(node[0]);
  if (node && typeof node === 'object') {
    const text = (node as XmlNode)['#text'];
    return typeof text === 'string' ? text : '';
  }
  return '';
}

/** The element's child elements named `name`, as a list whether it repeated or not. */
export function childrenOf(node: unknown, name: string): XmlNode[] {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return [];
  const value = (node as XmlNode)[name];
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  // `<area/>` reads as the empty string: an element with nothing in it.
  return list.map((item) => (item && typeof item === 'object' ? (item as XmlNode) : { '#text': item }));
}

/** The text of the child `name`, trimmed; empty when absent. */
export function childText(node: unknown, name: string): string {
  const [first] = childrenOf(node, name);
  return first ? textOf(first).trim() : '';
}

/** An attribute's value; empty when absent. */
export function attributeOf(node: XmlNode, name: string): string {
  const value = node[`@_${name}`];
  return typeof value === 'string' ? value : '';
}
