import { ConfigError } from './config-error';
import { loadReferralsConfig } from './referrals.config';

describe('referrals config', () => {
  it('given no SHARE_BASE_URL, then share links point at the public URL of the node', () =>
    expect(loadReferralsConfig({}, 'http://127.0.0.1:6777')).toEqual({ shareBaseUrl: 'http://127.0.0.1:6777' }));

  it('given SHARE_BASE_URL, then it wins, without its trailing slash', () =>
    expect(loadReferralsConfig({ SHARE_BASE_URL: 'https://example.org/app/' }, 'http://x:1')).toEqual({ shareBaseUrl: 'https://example.org/app' }));

  it.each(['ftp://example.org', 'not a url'])('given SHARE_BASE_URL %s, then the config is refused', (value) =>
    expect(() => loadReferralsConfig({ SHARE_BASE_URL: value }, 'http://x:1')).toThrow(ConfigError));
});
