/**
 * Reading other sites' feeds (/feeds/preview, /feeds/import; social-routes
 * §7): fetch a URL with a time-out, a size bound and the SSRF guard
 * (common/public-address.ts: non-public addresses refused unless
 * FEED_FETCH_ALLOW_PRIVATE), then parse RSS 2.0, Atom 1.0 or JSON Feed 1.x
 * with fast-xml-parser. Every failure is a 400 saying what went wrong.
 */
import { XMLParser } from 'fast-xml-parser';
import { DomainError } from '../../aggregates/shared/domain-error';
import { guardedGet } from '../common/public-address';
import type { PublishPostPayload } from './content.commands';
import { POST_CONTENT_MAX, TITLE_MAX } from './content.requests';

export interface FeedEntry {
  /** the item's own id (RSS guid, Atom id, JSON Feed id), when it has one */
  guid: string | null;
  title: string;
  link: string | null;
  content: string;
  published: string | null;
}

export interface ParsedFeed {
  title: string;
  items: FeedEntry[];
}

const MAX_FEED_BYTES = 2 * 1024 * 1024;
const FEED_ACCEPT = 'application/rss+xml, application/atom+xml, application/feed+json, application/xml, text/xml, application/json;q=0.9, */*;q=0.5';
const refused = (message: string): DomainError => new DomainError('invalid', message);

/** The URL as a fetchable http(s) URL without credentials, or 400. */
export function feedUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refused('url must be an http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refused('url must be an http(s) URL');
  if (url.username || url.password) throw refused('url must not carry credentials');
  return url;
}

/** GETs the feed's text: 200 only, redirects not followed, at most 2 MiB, within the time-out; 400 `Failed to fetch feed: …` otherwise. */
export async function fetchFeedText(url: URL, options: { timeoutMs: number; allowPrivate: boolean }): Promise<string> {
  try {
    return await guardedGet(url, { ...options, maxBytes: MAX_FEED_BYTES, accept: FEED_ACCEPT });
  } catch (error) {
    throw refused(`Failed to fetch feed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

const text = (value: unknown): string => {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (value && typeof value === 'object' && '#text' in value) return text((value as Record<string, unknown>)['#text']);
  return '';
};
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]);
const isoOrNull = (value: unknown): string | null => {
  const t = Date.parse(text(value));
  return Number.isNaN(t) ? null : new Date(t).toISOString();
};

function atomLink(value: unknown): string | null {
  const links = list(value) as Record<string, unknown>[];
  const alternate = links.find((l) => l && typeof l === 'object' && (l['@_rel'] === undefined || l['@_rel'] === 'alternate')) ?? links[0];
  if (typeof alternate === 'string') return alternate;
  return alternate && typeof alternate['@_href'] === 'string' ? (alternate['@_href'] as string) : null;
}

function jsonFeed(body: string): ParsedFeed {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw refused('Failed to parse feed: not valid JSON');
  }
  const feed = parsed as Record<string, unknown>;
  if (!feed || typeof feed !== 'object' || typeof feed.version !== 'string' || !feed.version.startsWith('https://jsonfeed.org/version/')) {
    throw refused('Failed to parse feed: not a JSON Feed');
  }
  return {
    title: text(feed.title),
    items: list(feed.items).map((raw) => {
      const item = (raw ?? {}) as Record<string, unknown>;
      return { guid: text(item.id) || null, title: text(item.title), link: typeof item.url === 'string' ? item.url : null, content: text(item.content_text) || text(item.content_html) || text(item.summary), published: isoOrNull(item.date_published) };
    }),
  };
}

/** RSS 2.0, Atom 1.0 or JSON Feed 1.x; 400 for anything else. Documents declaring entities are refused (no entity expansion). */
export function parseFeed(body: string): ParsedFeed {
  const start = body.trimStart();
  if (start.startsWith('{')) return jsonFeed(start);
  if (/<!ENTITY/i.test(body)) throw refused('Failed to parse feed: documents that declare entities are not read');
  let doc: Record<string, unknown>;
  try {
    doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', processEntities: true, htmlEntities: true }).parse(body, true) as Record<string, unknown>;
  } catch (error) {
    throw refused(`Failed to parse feed: ${error instanceof Error ? error.message : 'not XML'}`);
  }
  const rss = doc.rss as Record<string, unknown> | undefined;
  if (rss && typeof rss === 'object') {
    const channel = (rss.channel ?? {}) as Record<string, unknown>;
    return {
      title: text(channel.title),
      items: list(channel.item).map((raw) => {
        const item = (raw ?? {}) as Record<string, unknown>;
        return { guid: text(item.guid) || null, title: text(item.title), link: text(item.link) || null, content: text(item['content:encoded']) || text(item.description), published: isoOrNull(item.pubDate) };
      }),
    };
  }
  const feed = doc.feed as Record<string, unknown> | undefined;
  if (feed && typeof feed === 'object') {
    return {
      title: text(feed.title),
      items: list(feed.entry).map((raw) => {
        const entry = (raw ?? {}) as Record<string, unknown>;
        return { guid: text(entry.id) || null, title: text(entry.title), link: atomLink(entry.link), content: text(entry.content) || text(entry.summary), published: isoOrNull(entry.published ?? entry.updated) };
      }),
    };
  }
  throw refused('Failed to parse feed: neither RSS, Atom nor JSON Feed');
}

const cut = (text: string, max: number): string => ([...text].length <= max ? text : [...text].slice(0, max).join(''));

/** Reads a feed: the URL checked, fetched and parsed (every failure a 400). */
export async function readFeed(url: string, options: { timeoutMs: number; allowPrivate: boolean }): Promise<ParsedFeed> {
  return parseFeed(await fetchFeedText(feedUrl(url), options));
}

/** An item as the post that imports it (/feeds/import and the feed poller): the feed's title when the item has none, cut to the post limits, source_channel `feed`. */
export function feedItemPost(feed: ParsedFeed, item: FeedEntry, authorId: string, community: string | null): PublishPostPayload {
  const title = cut(item.title.trim() || feed.title.trim() || 'Untitled', TITLE_MAX);
  return { authorId, title, content: cut(item.content, POST_CONTENT_MAX), contentType: 'text', community, fields: { link_url: item.link, source_channel: 'feed' } };
}

/** The text of the first `max` characters (whole code points). */
export { cut as cutText };
