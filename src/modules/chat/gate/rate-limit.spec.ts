import { EmbeddedReadStore } from '../../../infrastructure/read-store/embedded/embedded-read-store';
import {
  type Collection,
  type Doc,
  DuplicateKeyError,
  type ReadStore,
} from '../../../infrastructure/read-store/read-store.port';
import { CHAT_RATE_LIMIT_COLLECTION, ChatRateLimiter, chatRateLimitKey } from './rate-limit';

/** 2030-01-01T00:00:00Z, a whole minute */
const T0 = Date.UTC(2030, 0, 1, 0, 0, 0);

describe('ChatRateLimiter', () => {
  let store: EmbeddedReadStore;
  let now: number;
  const clock = () => new Date(now);

  beforeEach(() => {
    store = new EmbeddedReadStore({ file: null });
    now = T0;
  });
  afterEach(() => store.close());

  const counters = () => store.collection(CHAT_RATE_LIMIT_COLLECTION);

  it('allows 30 requests a minute with the remaining count, then refuses the 31st', async () => {
    const limiter = new ChatRateLimiter(store, clock);
    for (let i = 1; i <= 30; i++) {
      expect(await limiter.take('user:ann')).toEqual({ allowed: true, remaining: 30 - i });
    }
    expect(await limiter.take('user:ann')).toEqual({ allowed: false, retryAfterSec: 60 });
  });

  it('does not count refused requests', async () => {
    const limiter = new ChatRateLimiter(store, clock, 2);
    await limiter.take('k');
    await limiter.take('k');
    for (let i = 0; i < 5; i++) expect((await limiter.take('k')).allowed).toBe(false);
    expect(await counters().findOne({ _id: `k:${T0}` })).toMatchObject({ count: 2 });
  });

  it('gives Retry-After as the whole seconds left in the window, at least 1', async () => {
    const limiter = new ChatRateLimiter(store, clock, 1);
    await limiter.take('k');
    now = T0 + 12_300;
    expect(await limiter.take('k')).toEqual({ allowed: false, retryAfterSec: 48 });
    now = T0 + 59_000;
    expect(await limiter.take('k')).toEqual({ allowed: false, retryAfterSec: 1 });
    now = T0 + 59_999;
    expect(await limiter.take('k')).toEqual({ allowed: false, retryAfterSec: 1 });
  });

  it('allows again after waiting Retry-After seconds', async () => {
    const limiter = new ChatRateLimiter(store, clock, 3);
    now = T0 + 41_700;
    for (let i = 0; i < 3; i++) await limiter.take('k');
    const refused = await limiter.take('k');
    expect(refused).toEqual({ allowed: false, retryAfterSec: 19 });
    if (refused.allowed) return;
    now += refused.retryAfterSec * 1000;
    expect(await limiter.take('k')).toEqual({ allowed: true, remaining: 2 });
  });

  it('Retry-After is always ≥ 1 and never ends inside the full window', async () => {
    const limiter = new ChatRateLimiter(store, clock, 1, 60);
    for (let offset = 0; offset < 60_000; offset += 997) {
      now = T0 + offset;
      await limiter.take(`k${offset}`);
      const decision = await limiter.take(`k${offset}`);
      if (decision.allowed) throw new Error('expected a refusal');
      expect(decision.retryAfterSec).toBeGreaterThanOrEqual(1);
      expect(T0 + offset + decision.retryAfterSec * 1000).toBeGreaterThanOrEqual(T0 + 60_000);
      expect(T0 + offset + (decision.retryAfterSec - 1) * 1000).toBeLessThan(T0 + 60_000);
    }
  });

  it('counts each key separately', async () => {
    const limiter = new ChatRateLimiter(store, clock, 1);
    expect((await limiter.take('user:ann')).allowed).toBe(true);
    expect((await limiter.take('user:bob')).allowed).toBe(true);
    expect((await limiter.take('ip:10.0.0.1')).allowed).toBe(true);
    expect((await limiter.take('user:ann')).allowed).toBe(false);
  });

  it('honours a custom limit and window', async () => {
    const limiter = new ChatRateLimiter(store, clock, 5, 10);
    for (let i = 0; i < 5; i++) expect((await limiter.take('k')).allowed).toBe(true);
    now = T0 + 2_500;
    expect(await limiter.take('k')).toEqual({ allowed: false, retryAfterSec: 8 });
    now = T0 + 10_000;
    expect(await limiter.take('k')).toEqual({ allowed: true, remaining: 4 });
  });

  it('under a race of 50 concurrent requests on one key, allows exactly 30', async () => {
    const limiter = new ChatRateLimiter(store, clock);
    const decisions = await Promise.all(Array.from({ length: 50 }, () => limiter.take('user:racer')));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(30);
    expect(decisions.filter((d) => !d.allowed)).toHaveLength(20);
    expect(await counters().findOne({ _id: `user:racer:${T0}` })).toMatchObject({ count: 30 });
  });

  it('shares the limit between service instances on the same store', async () => {
    const first = new ChatRateLimiter(store, clock);
    const second = new ChatRateLimiter(store, clock);
    const decisions = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? first : second).take('ip:203.0.113.9')),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(30);
    expect((await first.take('ip:203.0.113.9')).allowed).toBe(false);
    expect((await second.take('ip:203.0.113.9')).allowed).toBe(false);
  });

  it('deletes expired windows instead of keeping them forever', async () => {
    const limiter = new ChatRateLimiter(store, clock);
    for (let minute = 0; minute < 10; minute++) {
      now = T0 + minute * 60_000 + 5_000;
      await limiter.take('a');
      await limiter.take('b');
    }
    // only the current window and the one before it (kept for lagging clocks) remain
    const left = await counters().find({}, { sort: { window_start: 1, key: 1 } });
    expect(left.map((doc) => doc._id)).toEqual([
      `a:${T0 + 8 * 60_000}`,
      `b:${T0 + 8 * 60_000}`,
      `a:${T0 + 9 * 60_000}`,
      `b:${T0 + 9 * 60_000}`,
    ]);
  });

  it('sweeps at most once per window per instance', async () => {
    const limiter = new ChatRateLimiter(store, clock);
    const collection = counters();
    const deleteMany = jest.spyOn(collection, 'deleteMany');
    jest.spyOn(store, 'collection').mockReturnValue(collection);
    await Promise.all(Array.from({ length: 10 }, () => limiter.take('k')));
    now = T0 + 30_000;
    await limiter.take('k');
    expect(deleteMany).toHaveBeenCalledTimes(1);
    now = T0 + 60_000;
    await limiter.take('k');
    expect(deleteMany).toHaveBeenCalledTimes(2);
  });

  it('retries when another instance created the window counter first (MongoDB upsert race)', async () => {
    const real = counters();
    let clashes = 1;
    const racy = Object.create(real) as Collection<Doc>;
    racy.updateOne = async (filter, update, options) => {
      if (clashes-- > 0) {
        // the other instance's insert lands between our match and our insert
        await real.insertOne({ _id: String(filter._id), count: 1, key: 'k', window_start: T0, expires_at: T0 + 120_000 });
        throw new DuplicateKeyError(CHAT_RATE_LIMIT_COLLECTION, { _id: filter._id });
      }
      return real.updateOne(filter, update, options);
    };
    const racyStore = { collection: () => racy } as unknown as ReadStore;
    const limiter = new ChatRateLimiter(racyStore, clock);
    expect(await limiter.take('k')).toEqual({ allowed: true, remaining: 28 });
  });

  it('rejects an empty key and invalid settings', async () => {
    const limiter = new ChatRateLimiter(store, clock);
    await expect(limiter.take('')).rejects.toThrow(TypeError);
    expect(() => new ChatRateLimiter(store, clock, 0)).toThrow(RangeError);
    expect(() => new ChatRateLimiter(store, clock, 30, 0.5)).toThrow(RangeError);
  });
});

describe('chatRateLimitKey', () => {
  it('uses the authenticated user, else the IP', () => {
    expect(chatRateLimitKey({ authenticatedUserId: 'u1', ip: '10.0.0.1' })).toBe('user:u1');
    expect(chatRateLimitKey({ authenticatedUserId: null, ip: '10.0.0.1' })).toBe('ip:10.0.0.1');
    expect(chatRateLimitKey({ ip: '::1' })).toBe('ip:::1');
  });
});
