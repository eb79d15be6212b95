import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DomainError } from '../../aggregates/shared/domain-error';
import { feedUrl, fetchFeedText, parseFeed } from './feed-import';
import { renderAtom, renderJsonFeed, renderRss } from './syndication';

const channel = {
  title: 'A & B',
  description: 'd',
  link: 'https://example.com',
  self: 'https://example.com/feed',
  items: [{ id: '1', title: 'First <post>', content: 'Body & more', url: 'https://example.com/1', author: 'ann', publishedAt: '2026-05-01T10:00:00.000Z', updatedAt: '2026-05-01T10:00:00.000Z' }],
};
const first = { guid: expect.any(String) as string, title: 'First <post>', link: 'https://example.com/1', content: 'Body & more', published: '2026-05-01T10:00:00.000Z' };

describe('reading feeds', () => {
  it.each([
    ['RSS 2.0', renderRss],
    ['Atom 1.0', renderAtom],
    ['JSON Feed 1.1', renderJsonFeed],
  ])('given our own %s document, when parsed, then the title and items come back as written', (_, render) => {
    expect(parseFeed(render(channel))).toEqual({ title: 'A & B', items: [first] });
  });

  it('given a document declaring entities, then it is refused without expanding them', () => {
    const bomb = '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><rss><channel><title>&b;</title></channel></rss>';
    expect(() => parseFeed(bomb)).toThrow(DomainError);
  });

  it.each(['<html><body>hi</body></html>', '{"not":"a feed"}', 'plain text'])('given %s, then 400 saying it is no feed', (body) => {
    expect(() => parseFeed(body)).toThrow(/Failed to parse feed/);
  });

  it.each(['ftp://example.com/feed', 'not a url', 'http://user:pw@example.com/'])('given the URL %s, then it is refused', (url) => {
    expect(() => feedUrl(url)).toThrow(DomainError);
  });

  describe('fetching', () => {
    let server: Server;
    let base: string;
    beforeAll(async () => {
      server = createServer((req, res) => {
        if (req.url === '/slow') return; // never answers
        if (req.url === '/missing') return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(renderRss(channel));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    it('given loopback and private addresses not allowed, then the fetch is refused before connecting', async () => {
      await expect(fetchFeedText(new URL(`${base}/feed`), { timeoutMs: 1000, allowPrivate: false })).rejects.toThrow('is not a public address');
    });

    it('given a host name resolving to loopback, then the guarded lookup refuses it', async () => {
      const port = (server.address() as AddressInfo).port;
      await expect(fetchFeedText(new URL(`http://localhost:${port}/feed`), { timeoutMs: 1000, allowPrivate: false })).rejects.toThrow(/not a public address/);
    });

    it('given private addresses allowed, then the document is fetched', async () => {
      expect(parseFeed(await fetchFeedText(new URL(`${base}/feed`), { timeoutMs: 1000, allowPrivate: true })).items).toEqual([first]);
    });

    it('given a 404, then 400 naming the status', async () => {
      await expect(fetchFeedText(new URL(`${base}/missing`), { timeoutMs: 1000, allowPrivate: true })).rejects.toThrow('Failed to fetch feed: HTTP 404');
    });

    it('given a server that never answers, then the fetch gives up at the time-out', async () => {
      await expect(fetchFeedText(new URL(`${base}/slow`), { timeoutMs: 200, allowPrivate: true })).rejects.toThrow('no answer within 200 ms');
    });
  });
});
