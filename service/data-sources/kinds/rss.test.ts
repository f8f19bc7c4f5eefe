import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionTo, MIME, startHttpFixtures, type HttpFixtures } from '../test-servers/http-fixtures';
import { SourceError } from './kind';
import { parseFeed, plainText, RSS_ITEMS_MAX, RSS_SUMMARY_MAX, rssKind } from './rss';

let server: HttpFixtures;
beforeAll(async () => {
  server = await startHttpFixtures();
});
afterAll(async () => {
  await server.stop();
});

const signal = new AbortController().signal;
const now = new Date('2026-03-02T10:00:00Z');
const run = (url: string, query = '') => rssKind.run(connectionTo(url), { query, range: null, now }, signal);

const RSS = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel>
  <title>Canteen news</title>
  <link>https://example.com/</link>
  <item>
    <title>Soup &amp; bread</title>
    <link>https://example.com/soup</link>
    <pubDate>Mon, 02 Mar 2026 09:30:00 +0100</pubDate>
    <description><![CDATA[<p>Tomato soup<br/>with <b>basil</b> &amp; bread</p>]]></description>
  </item>
  <item>
    <title>No date</title>
    <pubDate>whenever</pubDate>
  </item>
</channel></rss>`;

const ATOM = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title type="text">Status</title>
  <entry>
    <title>Deploy done</title>
    <link rel="related" href="https://example.com/other"/>
    <link rel="alternate" href="https://example.com/deploy"/>
    <published>2026-03-01T12:00:00Z</published>
    <updated>2026-03-01T13:00:00Z</updated>
    <summary type="html">&lt;em&gt;All&lt;/em&gt; green</summary>
    <content type="html">long content</content>
  </entry>
  <entry>
    <title>Only updated</title>
    <updated>2026-02-28T08:00:00Z</updated>
    <content type="html">&lt;p&gt;From content&lt;/p&gt;</content>
  </entry>
</feed>`;

describe('an RSS source', () => {
  it('answers an RSS 2.0 feed as {title, items}', async () => {
    const url = server.serve('/news.rss', { type: MIME.rss, body: RSS });
    await expect(run(url)).resolves.toEqual({
      title: 'Canteen news',
      items: [
        {
          title: 'Soup & bread',
          link: 'https://example.com/soup',
          published: Date.parse('2026-03-02T08:30:00Z') / 1000,
          summary: 'Tomato soup\nwith basil & bread',
        },
        { title: 'No date', link: null, published: null, summary: null },
      ],
    });
  });

  it('answers an Atom feed in the same shape', async () => {
    const url = server.serve('/status.atom', { type: MIME.atom, body: ATOM });
    await expect(run(url)).resolves.toEqual({
      title: 'Status',
      items: [
        {
          title: 'Deploy done',
          link: 'https://example.com/deploy',
          published: Date.parse('2026-03-01T12:00:00Z') / 1000,
          summary: 'All green',
        },
        {
          title: 'Only updated',
          link: null,
          published: Date.parse('2026-02-28T08:00:00Z') / 1000,
          summary: 'From content',
        },
      ],
    });
  });

  it('applies the query as JMESPath', async () => {
    const url = server.serve('/query.atom', { type: MIME.atom, body: ATOM });
    await expect(run(url, 'items[0].title')).resolves.toBe('Deploy done');
  });

  it(`keeps the first ${RSS_ITEMS_MAX} items in the feed's order`, async () => {
    const items = Array.from({ length: RSS_ITEMS_MAX + 50 }, (_, n) => `<item><title>n${n}</title></item>`);
    const url = server.serve('/long.rss', {
      type: MIME.rss,
      body: `<rss version="2.0"><channel><title>t</title>${items.join('')}</channel></rss>`,
    });
    const feed = (await run(url)) as { items: { title: string }[] };
    expect(feed.items).toHaveLength(RSS_ITEMS_MAX);
    expect(feed.items.map((item) => item.title).slice(0, 3)).toEqual(['n0', 'n1', 'n2']);
    expect(feed.items.at(-1)?.title).toBe(`n${RSS_ITEMS_MAX - 1}`);
  });

  it('never fetches what the feed names: an external entity is not requested', async () => {
    const leak = server.serve('/leak', { type: 'text/plain', body: 'inside' });
    const xml = `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY x SYSTEM "${leak}">]>
      <rss version="2.0"><channel><title>&x;</title><item><title>a</title></item></channel></rss>`;
    const url = server.serve('/entity.rss', { type: MIME.rss, body: xml });
    const feed = await run(url).catch((error: unknown) => error);
    expect(JSON.stringify(feed)).not.toContain('inside');
    expect(server.traffic('/leak').requests).toBe(0);
  });

  it('refuses an answer that is not a feed', async () => {
    const url = server.serve('/page.html', { type: 'text/html', body: '<html><body>hi</body></html>' });
    await expect(run(url)).rejects.toThrow(SourceError);
    await expect(run(url)).rejects.toThrow(/^the answer is not an RSS or Atom feed: /);
    await expect(parseFeed('not xml at all <')).rejects.toThrow(/^the answer is not an RSS or Atom feed: /);
  });
});

describe('plainText', () => {
  it('removes tags, decodes entities and clips long text', () => {
    expect(plainText('a&#39;b &#x263A; &nbsp;&bogus; <script>x</script>')).toBe("a'b ☺ &bogus; x");
    expect(plainText('x'.repeat(RSS_SUMMARY_MAX + 10))).toHaveLength(RSS_SUMMARY_MAX);
  });
});
