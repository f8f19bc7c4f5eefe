import { describe, expect, it } from 'vitest';
import { readDocument, readLinkedAlert } from './document';
import { alertElement, atomFeed, capDocument, rssFeed } from './testing/cap-xml';
import { XMLParser } from 'fast-xml-parser';
import { CapFeedError, XML_OPTIONS } from './xml';

/** Reading what a feed serves: one alert, Atom and RSS feeds, and what is refused, and why. */

const BASE = 'https://alerts.example.test/feeds/atom.xml';

describe('a CAP document', () => {
  it('is read with the fields that decide and make an override', () => {
    const { alerts, links } = readDocument(
      capDocument({
        identifier: 'A-1',
        msgType: 'Update',
        references: ['A-0', 'A-00'],
        infos: [
          {
            event: 'Flood',
            severity: 'Extreme',
            headline: 'Flood warning',
            description: 'The river is rising.',
            instruction: 'Go upstairs.',
            expires: '2026-11-27T12:00:00+01:00',
            areas: [{ desc: 'Riverside; Old Town', geocodes: [{ name: 'FIPS6', value: '006113' }] }],
          },
        ],
      }),
      BASE,
    );
    expect(links).toEqual([]);
    expect(alerts).toEqual([
      {
        identifier: 'A-1',
        sender: 'alerts@example.test',
        status: 'Actual',
        msgType: 'Update',
        references: ['A-0', 'A-00'],
        infos: [
          {
            event: 'Flood',
            severity: 'Extreme',
            headline: 'Flood warning',
            description: 'The river is rising.',
            instruction: 'Go upstairs.',
            expires: Date.parse('2026-11-27T11:00:00Z'),
            areas: [{ description: 'Riverside; Old Town', geocodes: ['006113'] }],
          },
        ],
      },
    ]);
  });

  it('keeps identifiers of digits as text, decodes character references, and reads a prefixed alert', () => {
    const xml = `<?xml version="1.0"?>
<cap:alert xmlns:cap="urn:oasis:names:tc:emergency:cap:1.2">
  <cap:identifier>000123</cap:identifier><cap:status>Actual</cap:status><cap:msgType>Alert</cap:msgType>
  <cap:info><cap:severity>severe</cap:severity><cap:event>Caf&#233; fire &amp; smoke</cap:event>
  <cap:description><![CDATA[Keep <away> & stay safe]]></cap:description>
  <cap:expires>2026-11-27T12:00:00</cap:expires></cap:info>
</cap:alert>`;
    const [alert] = readDocument(xml, BASE).alerts;
    expect(alert?.identifier).toBe('000123');
    expect(alert?.infos[0]).toMatchObject({
      severity: 'Severe',
      event: 'Café fire & smoke',
      description: 'Keep <away> & stay safe',
      // No offset: no instant CAP allows; the alert is read as one without an expiry.
      expires: null,
    });
  });

  it('is found in an Atom feed, carried in an entry or linked from it (made absolute)', () => {
    const { alerts, links } = readDocument(
      atomFeed([
        { alert: { identifier: 'IN-1' } },
        { href: '../cap/two.xml' },
        { href: 'https://other.example.test/three.xml', type: 'application/cap+xml' },
      ]),
      BASE,
    );
    expect(alerts.map((alert) => alert.identifier)).toEqual(['IN-1']);
    expect(links).toEqual([
      'https://alerts.example.test/cap/two.xml',
      'https://other.example.test/three.xml',
    ]);
  });

  it('is found in an RSS feed by its items links', () => {
    expect(readDocument(rssFeed(['https://alerts.example.test/a.xml']), BASE)).toEqual({
      alerts: [],
      links: ['https://alerts.example.test/a.xml'],
    });
  });

  it('linked, must be a CAP alert', () => {
    expect(
      readLinkedAlert(`<?xml version="1.0"?>${alertElement({ identifier: 'L-1' })}`, BASE).identifier,
    ).toBe('L-1');
    expect(() => readLinkedAlert('<html><body>Alerts</body></html>', BASE)).toThrow('is not a CAP alert');
  });
});

describe('what is refused, with the reason the feed shows', () => {
  const refused = (xml: string) => {
    try {
      readDocument(xml, BASE);
    } catch (error) {
      expect(error).toBeInstanceOf(CapFeedError);
      return (error as Error).message;
    }
    throw new Error('it was read');
  };

  it('an XML bomb or an external entity: any DTD, before the parser expands anything', () => {
    const laughs = Array.from(
      { length: 9 },
      (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`,
    ).join('');
    const bomb = `<?xml version="1.0"?><!DOCTYPE alert [<!ENTITY lol0 "lol">${laughs}]><alert><identifier>&lol9;</identifier></alert>`;
    const started = performance.now();
    expect(refused(bomb)).toContain('declares a DTD');
    // A billion "lol"s expanded would take seconds and gigabytes.
    expect(performance.now() - started).toBeLessThan(100);
    expect(
      refused(
        `<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><alert>&x;</alert>`,
      ),
    ).toContain('declares a DTD');
  });

  it('and the parser, were a DTD ever to reach it, expands no entity that names others', () => {
    const laughs = Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`);
    const bomb = `<!DOCTYPE a [<!ENTITY l0 "lol">${laughs.join('')}]><a><b>&l9;</b></a>`;
    let text = '';
    try {
      text = JSON.stringify(new XMLParser(XML_OPTIONS).parse(bomb));
    } catch {
      // Refusing it outright is as good.
    }
    expect(text.length).toBeLessThan(200);
  });

  it('what is not well-formed XML, or neither CAP nor a feed, or CAP without an identifier', () => {
    expect(refused('<alert><identifier>x</alert>')).toContain('not well-formed XML');
    expect(refused('{"alerts": []}')).toContain('not well-formed XML');
    expect(refused('<html><body/></html>')).toBe(
      'the document is neither a CAP alert nor an Atom or RSS feed (its root is <html>)',
    );
    expect(refused('<alert><status>Actual</status><msgType>Alert</msgType></alert>')).toBe(
      'the alert is not CAP: it has no <identifier>',
    );
    expect(refused(atomFeed([{ href: 'file:///etc/passwd' }]))).toContain('no http(s) address');
  });

  it('a document nested past any reason, without crashing', () => {
    const deep = `${'<a>'.repeat(200_000)}${'</a>'.repeat(200_000)}`;
    expect(() => readDocument(deep, BASE)).toThrow(CapFeedError);
  });
});
