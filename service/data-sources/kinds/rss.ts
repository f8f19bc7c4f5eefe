/**
 * RSS and Atom: the source's URL answers a feed (RSS 2.0, RSS 1.0 or Atom). What a mapping reads:
 *
 * `{title: string | null, items: [{title, link, published, summary}]}`
 *
 * - `items` in the feed's order, at most RSS_ITEMS_MAX;
 * - `title` and `link` are text or null;
 * - `published`: unix seconds, or null when the item has no readable date (Atom's `published`,
 *   else its `updated`; RSS's `pubDate`);
 * - `summary`: plain text (tags removed, entities decoded, at most RSS_SUMMARY_MAX characters) of
 *   Atom's `summary`, else its `content`, or RSS's `description`; null when there is none.
 *
 * The binding's query, when not '', is a JMESPath expression over that object (`items[:5].title`).
 */
import type Parser from 'rss-parser';
import { applyJmesPath, checkJmesPathQuery, fetchSource } from './http-fetch';
import { SourceError, type SourceConnection, type SourceKind, type SourceQuery } from './kind';

export const RSS_ITEMS_MAX = 200;
export const RSS_SUMMARY_MAX = 2000;

export interface FeedItem {
  title: string | null;
  link: string | null;
  published: number | null;
  summary: string | null;
}

export interface Feed {
  title: string | null;
  items: FeedItem[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Markup a feed's text may carry, as text a screen shows. Rough on purpose: it is never rendered as HTML. */
export function plainText(html: string): string {
  const text = html
    .replace(/<(?:br|\/p|\/div|\/li|\/h\d)\b[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    })
    .replace(/[ \t]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
  return text.length > RSS_SUMMARY_MAX ? `${text.slice(0, RSS_SUMMARY_MAX - 1)}…` : text;
}

function textOrNull(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function secondsOf(iso: unknown): number | null {
  if (typeof iso !== 'string') return null;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
}

type ParsedItem = Parser.Item & { summary?: unknown; content?: unknown; isoDate?: string };

function itemOf(item: ParsedItem): FeedItem {
  // rss-parser puts RSS's description in `content`, Atom's summary in `summary`.
  const summary = textOrNull(item.summary) ?? textOrNull(item.content);
  return {
    title: textOrNull(item.title) === null ? null : plainText(item.title ?? ''),
    link: textOrNull(item.link),
    published: secondsOf(item.isoDate),
    summary: summary === null ? null : plainText(summary),
  };
}

/** A feed's text as the mapping reads it; exported for the tests and the bench. */
export async function parseFeed(xml: string): Promise<Feed> {
  // Only parseString: the parser's own fetch would pass by the destination rule and the limits.
  // Loaded at the first feed read, not at every start of the service (as mysql.ts's driver).
  const { default: FeedParser } = await import('rss-parser');
  const parser = new FeedParser();
  let feed: Parser.Output<Record<string, unknown>>;
  try {
    feed = await parser.parseString(xml);
  } catch (error) {
    throw new SourceError(`the answer is not an RSS or Atom feed: ${(error as Error).message}`);
  }
  return {
    title: textOrNull(feed.title),
    items: feed.items.slice(0, RSS_ITEMS_MAX).map((item) => itemOf(item as ParsedItem)),
  };
}

async function run(connection: SourceConnection, query: SourceQuery, signal: AbortSignal): Promise<unknown> {
  const fault = checkJmesPathQuery(query.query, query.range);
  if (fault !== null) throw new SourceError(fault);
  const { text } = await fetchSource(connection, signal, {
    accept: 'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.1',
  });
  return applyJmesPath(await parseFeed(text), query.query);
}

export const rssKind: SourceKind = { run, check: checkJmesPathQuery };
