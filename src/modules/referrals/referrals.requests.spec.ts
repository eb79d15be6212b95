import { expectReaderAgreesWithSchema } from '../../../test/support/schema-agreement';
import { REFERRAL_USE_BODY_SCHEMA, referralUseRequest, SHARE_LINK_BODY_SCHEMA, shareLink, shareLinkRequest } from './referrals.requests';

describe('the referral routes’ body schemas agree with their readers', () => {
  it('given referral/use bodies, then the reader accepts exactly what the schema accepts', () => {
    expectReaderAgreesWithSchema(REFERRAL_USE_BODY_SCHEMA, referralUseRequest, {
      valid: { code: 'ABCD1234' },
      candidates: { code: ['x', 'c'.repeat(64), 'c'.repeat(65)] },
    });
  });

  it('given share/generate-link bodies, then the reader accepts exactly what the schema accepts', () => {
    expectReaderAgreesWithSchema(SHARE_LINK_BODY_SCHEMA, shareLinkRequest, {
      valid: { target_type: 'post', target_id: 'p-1', base_url: 'https://example.org' },
      candidates: { target_type: ['community', 'Post', '1x', 'a'.repeat(33)], target_id: ['a:b.c_d-e', 'a/b', 'x'.repeat(129)], base_url: ['http://h', 'https://h/a/', 'https://h?x=1', 'ftp://h', 'https://' + 'h'.repeat(500)] },
    });
  });
});

describe('share links', () => {
  it('given a base without a trailing slash, then <base>/<type>/<id>?ref=<code>', () =>
    expect(shareLink('https://example.org', 'post', 'p-1', 'ABCD1234')).toBe('https://example.org/post/p-1?ref=ABCD1234'));

  it('given a base_url with a trailing slash, then it is dropped', () =>
    expect(shareLinkRequest({ target_type: 'post', target_id: 'p1', base_url: 'https://example.org/app/' }).baseUrl).toBe('https://example.org/app'));

  it.each(['ftp://example.org', 'https://example.org/?a=1', 'nonsense'])('given base_url %s, then it is refused', (base) =>
    expect(() => shareLinkRequest({ target_type: 'post', target_id: 'p1', base_url: base })).toThrow('base_url must be an http(s) URL without query or fragment'));
});
