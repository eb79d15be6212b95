import { DomainError } from '../../aggregates/shared/domain-error';
import { escapeHtml } from './html-escape';
import { paged } from './envelope';
import { pageQuery } from './paging';

const rule = { defaultLimit: 25, cap: 100 };

describe('pageQuery', () => {
  it('given no limit or offset, then the route default and offset 0', () => {
    expect(pageQuery({}, rule)).toEqual({ limit: 25, offset: 0 });
  });

  it('given a limit over the cap, then the cap', () => {
    expect(pageQuery({ limit: '500', offset: '10' }, rule)).toEqual({ limit: 100, offset: 10 });
  });

  it.each([['abc'], ['-1'], ['1.5'], ['1e3']])('given limit %p, then a 400 naming the parameter', (limit) => {
    expect(() => pageQuery({ limit }, rule)).toThrow(new DomainError('invalid', 'limit must be a non-negative integer'));
  });

  it('given a non-numeric offset, then a 400 naming offset', () => {
    expect(() => pageQuery({ offset: 'x' }, rule)).toThrow('offset must be a non-negative integer');
  });
});

describe('paged', () => {
  it('given a page that does not reach the end, then has_more', () => {
    expect(paged([1, 2], 5, { limit: 2, offset: 0 }).meta).toEqual({ total: 5, limit: 2, offset: 0, has_more: true });
  });

  it('given the last page, then no more', () => {
    expect(paged([5], 5, { limit: 2, offset: 4 }).meta.has_more).toBe(false);
  });
});

describe('escapeHtml', () => {
  it('given markup, then every special character is escaped', () => {
    expect(escapeHtml(`<script>alert("x" & 'y')</script>`)).toBe('&lt;script&gt;alert(&quot;x&quot; &amp; &#x27;y&#x27;)&lt;/script&gt;');
  });
});
