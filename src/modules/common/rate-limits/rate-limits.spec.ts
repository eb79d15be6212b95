import { DomainError } from '../../../aggregates/shared/domain-error';
import { type AppConfig, loadConfig } from '../../../config/config';
import { Clock } from '../../../infrastructure/clock';
import { EmbeddedReadStore } from '../../../infrastructure/read-store/embedded/embedded-read-store';
import { effectiveBuckets, type RateCaller, type RateLimitName, RateLimits } from './rate-limits';

class PinnedClock extends Clock {
  at = new Date(Date.UTC(2030, 0, 1));
  now(): Date {
    return this.at;
  }
}

const ANN = { userId: 'ann', ip: '203.0.113.1' };

describe('RateLimits: the social platform buckets (social-routes §0.3)', () => {
  let store: EmbeddedReadStore;
  beforeEach(() => {
    store = new EmbeddedReadStore({ file: null });
  });
  afterEach(() => store.close());

  const limitsFor = (env: Record<string, string>): RateLimits => {
    const config: AppConfig = loadConfig({ DATA_DIR: '/tmp/unused', ...env });
    return new RateLimits(store, new PinnedClock(), config);
  };

  /** How many of `count` takes pass, and the text of the first refusal. */
  async function takeMany(limits: RateLimits, names: RateLimitName[], count: number, caller: RateCaller = ANN) {
    let passed = 0;
    let refusal: DomainError | undefined;
    for (let i = 0; i < count; i++) {
      try {
        await limits.take(names, caller);
        passed++;
      } catch (error) {
        refusal ??= error as DomainError;
      }
    }
    return { passed, refusal };
  }

  it('given a route limited by a content bucket, then global is checked first, each bucket once', () => {
    expect(effectiveBuckets(['post'])).toEqual(['global', 'post']);
    expect(effectiveBuckets(['global', 'search'])).toEqual(['global', 'search']);
    expect(effectiveBuckets(['global'])).toEqual(['global']);
    expect(effectiveBuckets(['auth'])).toEqual(['auth']);
  });

  it('given the defaults, when a user posts twice within 30 minutes, then the second is refused for post with Retry-After', async () => {
    const { passed, refusal } = await takeMany(limitsFor({}), effectiveBuckets(['post']), 2);
    expect(passed).toBe(1);
    expect(refusal?.message).toBe('Rate limit exceeded for post. Try again later.');
    expect(refusal?.options.retryAfterSec).toBe(30 * 60);
  });

  it.each([
    ['comment', 50],
    ['vote', 60],
    ['search', 30],
    ['backup', 10],
  ] as const)('given the defaults, the %s bucket holds %i', async (bucket, size) => {
    const { passed, refusal } = await takeMany(limitsFor({}), effectiveBuckets([bucket]), size + 1);
    expect(passed).toBe(size);
    expect(refusal?.message).toBe(`Rate limit exceeded for ${bucket}. Try again later.`);
  });

  it('given 100 requests of one user a minute, when a 101st arrives on any social route, then global refuses with its own text', async () => {
    const limits = limitsFor({});
    await takeMany(limits, ['global'], 60);
    const searches = await takeMany(limits, effectiveBuckets(['search']), 31);
    expect(searches.passed).toBe(30);
    expect(searches.refusal?.message).toBe('Rate limit exceeded for search. Try again later.');
    const votes = await takeMany(limits, effectiveBuckets(['vote']), 10); // global has 9 left: the refused search took one too
    expect(votes.passed).toBe(9);
    expect(votes.refusal?.message).toBe('Rate limit exceeded. Try again later.');
  });

  it('given a known user, then the buckets are the user’s wherever the requests come from; anonymous callers are counted per address', async () => {
    const limits = limitsFor({ RATE_LIMIT_SEARCH: '2/1m' });
    expect((await takeMany(limits, ['search'], 2, { userId: 'ann', ip: '198.51.100.1' })).passed).toBe(2);
    expect((await takeMany(limits, ['search'], 1, { userId: 'ann', ip: '198.51.100.2' })).passed).toBe(0);
    expect((await takeMany(limits, ['search'], 2, { userId: null, ip: '198.51.100.1' })).passed).toBe(2);
    expect((await takeMany(limits, ['search'], 1, { userId: null, ip: '198.51.100.1' })).passed).toBe(0);
  });

  it('given RATE_LIMIT_POST, then the post bucket takes that size', async () => {
    expect((await takeMany(limitsFor({ RATE_LIMIT_POST: '3/1h' }), ['post'], 5)).passed).toBe(3);
  });

  it.each(['1', 'true', 'yes'])('given SOCIAL_RATE_LIMIT_DISABLED=%s, then the social buckets hold 100000 a minute and the pipeline’s stay', (value) => {
    const config = loadConfig({ DATA_DIR: '/tmp/unused', SOCIAL_RATE_LIMIT_DISABLED: value });
    for (const name of ['global', 'auth', 'register', 'recovery', 'post', 'comment', 'vote', 'search', 'backup'] as const) {
      expect(config.security.rateLimits[name]).toEqual({ limit: 100_000, periodSec: 60 });
    }
    expect(config.security.rateLimits.pipeline).toEqual({ limit: 60, periodSec: 60 });
  });
});
