/**
 * Posts as syndication documents (social-routes §7): RSS 2.0, Atom 1.0 and
 * JSON Feed 1.1. Pure functions of a channel and its items; XML text is
 * escaped here (the items carry the stored, unescaped text).
 */

export interface FeedItem {
  id: string;
  title: string;
  content: string;
  url: string;
  author: string;
  publishedAt: string;
  updatedAt: string;
}

export interface FeedChannel {
  title: string;
  description: string;
  /** the human-readable page the feed stands for */
  link: string;
  /** the feed's own URL */
  self: string;
  items: FeedItem[];
}

export const FEED_CONTENT_TYPES = {
  rss: 'application/rss+xml; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
  json: 'application/feed+json; charset=utf-8',
} as const;

export type FeedFormat = keyof typeof FEED_CONTENT_TYPES;

/** XML 1.0 text: the five entities escaped and characters XML cannot hold removed. */
export function xmlText(text: string): string {
  return text
    .replace(/[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string);
}

const rfc822 = (iso: string): string => new Date(iso).toUTCString();
const rfc3339 = (iso: string): string => new Date(iso).toISOString();

export function renderRss(channel: FeedChannel): string {
  const items = channel.items
    .map(
      (item) => `    <item>
      <title>${xmlText(item.title)}</title>
      <link>${xmlText(item.url)}</link>
      <guid isPermaLink="true">${xmlText(item.url)}</guid>
      <description>${xmlText(item.content)}</description>
      <dc:creator>${xmlText(item.author)}</dc:creator>
      <pubDate>${rfc822(item.publishedAt)}</pubDate>
    </item>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel>
    <title>${xmlText(channel.title)}</title>
    <link>${xmlText(channel.link)}</link>
    <description>${xmlText(channel.description)}</description>
    <atom:link href="${xmlText(channel.self)}" rel="self" type="application/rss+xml"/>
    <lastBuildDate>${rfc822(channel.items[0]?.updatedAt ?? new Date(0).toISOString())}</lastBuildDate>
${items}
  </channel>
</rss>
`;
}

export function renderAtom(channel: FeedChannel): string {
  const entries = channel.items
    .map(
      (item) => `  <entry>
    <id>${xmlText(item.url)}</id>
    <title>${xmlText(item.title)}</title>
    <link rel="alternate" href="${xmlText(item.url)}"/>
    <author><name>${xmlText(item.author)}</name></author>
    <published>${rfc3339(item.publishedAt)}</published>
    <updated>${rfc3339(item.updatedAt)}</updated>
    <content type="text">${xmlText(item.content)}</content>
  </entry>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>${xmlText(channel.self)}</id>
  <title>${xmlText(channel.title)}</title>
  <subtitle>${xmlText(channel.description)}</subtitle>
  <link rel="self" href="${xmlText(channel.self)}"/>
  <link rel="alternate" href="${xmlText(channel.link)}"/>
  <updated>${rfc3339(channel.items[0]?.updatedAt ?? new Date(0).toISOString())}</updated>
${entries}
</feed>
`;
}

export function renderJsonFeed(channel: FeedChannel): string {
  return JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: channel.title,
    home_page_url: channel.link,
    feed_url: channel.self,
    description: channel.description,
    items: channel.items.map((item) => ({
      id: item.id,
      url: item.url,
      title: item.title,
      content_text: item.content,
      date_published: rfc3339(item.publishedAt),
      date_modified: rfc3339(item.updatedAt),
      authors: [{ name: item.author }],
    })),
  });
}

export function renderFeed(format: FeedFormat, channel: FeedChannel): string {
  if (format === 'rss') return renderRss(channel);
  if (format === 'atom') return renderAtom(channel);
  return renderJsonFeed(channel);
}
