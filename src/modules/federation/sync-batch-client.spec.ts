import { replyHeadersOf } from './sync-batch-client';

describe('the reply headers of a forwarded write', () => {
  it('given central’s reply headers, then Retry-After, Location and Cache-Control travel back as strings, nothing else', () => {
    const headers = replyHeadersOf({ 'retry-after': 30, location: '/api/social/posts/p1', 'cache-control': 'no-store', 'set-cookie': 'session=1', 'x-request-id': 'r1', 'content-length': '12' });

    expect(headers).toEqual({ 'retry-after': '30', location: '/api/social/posts/p1', 'cache-control': 'no-store' });
  });

  it('given no headers, or not an object, then none', () => {
    expect(replyHeadersOf(undefined)).toEqual({});
    expect(replyHeadersOf('retry-after: 30')).toEqual({});
  });
});
