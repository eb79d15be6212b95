import { EmbeddedReadStore } from '../../../infrastructure/read-store/embedded/embedded-read-store';
import { type Collection, type Doc, type ReadStore } from '../../../infrastructure/read-store/read-store.port';
import { RATE_LIMIT_COLLECTION, TokenBucketLimiter } from './token-bucket-limiter';

const T0 = Date.UTC(2030, 0, 1, 0, 0, 0);
const PER_MINUTE_30 = { limit: 30, periodSec: 60 };

describe('TokenBucketLimiter', () => {
  let store: EmbeddedReadStore;
  let now: number;
  const clock = () => new Date(now);

  beforeEach(() => {
    store = new EmbeddedReadStore({ file: null });
    now = T0;
  });
  afterEach(() => store.close());

  const buckets = () => store.collection(RATE_LIMIT_COLLECTION);

  it('given a full bucket of 30 a minute, when 31 requests arrive at once, then 30 pass with the tokens left and the 31st waits one refill', async () => {
    const limiter = new TokenBucketLimiter(store, clock);
    for (let i = 1; i <= 30; i++) {
      expect(await limiter.take('user:ann', PER_MINUTE_30)).toEqual({ allowed: true, remaining: 30 - i });
    }
    expect(await limiter.take('user:ann', PER_MINUTE_30)).toEqual({ allowed: false, retryAfterSec: 2 });
  });

  it('given an empty bucket, when a refused request is retried after Retry-After, then it passes', async () => {
    const limiter = new TokenBucketLimiter(store, clock);
    const size = { limit: 3, periodSec: 60 };
    for (let i = 0; i < 3; i++) await limiter.take('k', size);
    const refused = await limiter.take('k', size);
    expect(refused).toEqual({ allowed: false, retryAfterSec: 20 });
    now += 20_000;
    expect(await limiter.take('k', size)).toEqual({ allowed: true, remaining: 0 });
  });

  it('given an empty bucket, when refused requests keep coming, then they take nothing', async () => {
    const limiter = new TokenBucketLimiter(store, clock);
    const size = { limit: 2, periodSec: 10 };
    await limiter.take('k', size);
    await limiter.take('k', size);
    for (let i = 0; i < 5; i++) expect((await limiter.take('k', size)).allowed).toBe(false);
    now += 5_000;
    expect((await limiter.take('k', size)).allowed).toBe(true);
  });

  it('refills continuously: half a period gives back half the tokens', async () => {
    const limiter = new TokenBucketLimiter(store, clock);
    for (let i = 0; i < 30; i++) await limiter.take('k', PER_MINUTE_30);
    now += 30_000;
    const passed = [];
    for (let i = 0; i < 20; i++) passed.push((await limiter.take('k', PER_MINUTE_30)).allowed);
    expect(passed.filter(Boolean)).toHaveLength(15);
  });

  it('counts each key separately', async () => {
    const limiter = new TokenBucketLimiter(store, clock);
    const one = { limit: 1, periodSec: 60 };
    expect((await limiter.take('user:ann', one)).allowed).toBe(true);
    expect((await limiter.take('user:bob', one)).allowed).toBe(true);
    expect((await limiter.take('user:ann', one)).allowed).toBe(false);
  });

  it('under a race of 50 concurrent requests on one key, allows exactly 30', async () => {
    const limiter = new TokenBucketLimiter(store, clock);
    const decisions = await Promise.all(Array.from({ length: 50 }, () => limiter.take('user:racer', PER_MINUTE_30)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(30);
  });

  it('shares a bucket between service instances on the same store', async () => {
    const first = new TokenBucketLimiter(store, clock);
    const second = new TokenBucketLimiter(store, clock);
    const decisions = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? first : second).take('ip:203.0.113.9', PER_MINUTE_30)),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(30);
  });

  it('retries when another instance took a token between its read and its write', async () => {
    const real = buckets();
    let interleave = true;
    const racy = Object.create(real) as Collection<Doc>;
    racy.updateOne = async (filter, update, options) => {
      if (interleave) {
        interleave = false;
        await real.updateOne({ _id: filter._id }, { $inc: { tat: 2_000 } }); // the other instance's take
      }
      return real.updateOne(filter, update, options);
    };
    const limiter = new TokenBucketLimiter({ collection: () => racy } as unknown as ReadStore, clock);
    await limiter.take('k', PER_MINUTE_30);
    expect(await limiter.take('k', PER_MINUTE_30)).toEqual({ allowed: true, remaining: 27 });
  });

  it('deletes buckets that are full again instead of keeping them forever', async () => {
    const limiter = new TokenBucketLimiter(store, clock);
    await limiter.take('a', PER_MINUTE_30);
    await limiter.take('b', { limit: 1, periodSec: 3600 });
    now += 61_000;
    await limiter.take('c', PER_MINUTE_30);
    const left = await buckets().find({}, { sort: { _id: 1 } });
    expect(left.map((doc) => doc._id)).toEqual(['b', 'c']);
  });

  it('rejects an empty key and an empty bucket size', async () => {
    const limiter = new TokenBucketLimiter(store, clock);
    await expect(limiter.take('', PER_MINUTE_30)).rejects.toThrow(TypeError);
    await expect(limiter.take('k', { limit: 0, periodSec: 60 })).rejects.toThrow(RangeError);
  });
});
