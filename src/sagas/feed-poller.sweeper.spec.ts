import type { AppConfig } from '../config/config';
import type { Clock } from '../infrastructure/clock';
import type { PlatformLifecycle } from '../infrastructure/platform-lifecycle';
import type { FeedSubscriptionQueries } from '../modules/content/feed-subscriptions.queries';
import type { CommandBus } from '@nestjs/cqrs';
import { FeedPoller } from './feed-poller.sweeper';

function pollerOn(node: { pollIntervalMs: number; writesInBackground?: boolean }): FeedPoller {
  const config = { feeds: { fetchTimeoutMs: 1000, allowPrivate: false, pollIntervalMs: node.pollIntervalMs } } as unknown as AppConfig;
  const lifecycle = { writesInBackground: () => node.writesInBackground ?? true } as unknown as PlatformLifecycle;
  return new FeedPoller(config, {} as FeedSubscriptionQueries, {} as CommandBus, {} as Clock, lifecycle);
}

describe('feed poller schedule', () => {
  let timers: jest.SpyInstance;
  beforeEach(() => (timers = jest.spyOn(global, 'setInterval')));
  afterEach(() => timers.mockRestore());

  it('given a central node with an interval, when the app starts, then the poller is scheduled at that interval', async () => {
    const poller = pollerOn({ pollIntervalMs: 60_000 });
    poller.onApplicationBootstrap();
    expect(timers).toHaveBeenCalledWith(expect.any(Function), 60_000);
    await poller.onModuleDestroy();
  });

  it('given FEED_POLL_INTERVAL_MS 0, when the app starts, then the poller does not run', () => {
    pollerOn({ pollIntervalMs: 0 }).onApplicationBootstrap();
    expect(timers).not.toHaveBeenCalled();
  });

  it('given a process that appends nothing in the background (an API process, a regional node), when the app starts, then the poller does not run', () => {
    pollerOn({ pollIntervalMs: 60_000, writesInBackground: false }).onApplicationBootstrap();
    expect(timers).not.toHaveBeenCalled();
  });
});
