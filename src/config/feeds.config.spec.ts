import { ConfigError } from './config-error';
import { loadFeedsConfig } from './feeds.config';

describe('feeds config', () => {
  it('given nothing set, then the poller runs every 15 minutes', () => expect(loadFeedsConfig({}).pollIntervalMs).toBe(900_000));

  it('given FEED_POLL_INTERVAL_MS 0, then the poller is off', () => expect(loadFeedsConfig({ FEED_POLL_INTERVAL_MS: '0' }).pollIntervalMs).toBe(0));

  it('given FEED_POLL_INTERVAL_MS 60000, then the poller runs every minute', () => expect(loadFeedsConfig({ FEED_POLL_INTERVAL_MS: '60000' }).pollIntervalMs).toBe(60_000));

  it.each(['-1', 'soon', '50', '604800001'])('given FEED_POLL_INTERVAL_MS %p, then the config is refused', (value) =>
    expect(() => loadFeedsConfig({ FEED_POLL_INTERVAL_MS: value })).toThrow(ConfigError));
});
