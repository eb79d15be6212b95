/**
 * Token buckets shared by every service instance through the read store
 * (SPEC §8 for /chat; social-routes §0.3 for the named buckets). A bucket
 * holds `limit` tokens and refills continuously at `limit` per `periodSec`.
 *
 * Algorithm: GCRA (the generic cell rate algorithm), which is a token bucket
 * kept as ONE number per key: the theoretical arrival time `tat` of the next
 * request once the bucket is empty. A request is allowed when taking one
 * token (tat + interval) does not push `tat` more than one period past now.
 * One number means one compare-and-set per request: the document is updated
 * only if its `tat` is still the one read (or inserted if absent), and a lost
 * race reads again. Concurrent requests, from this or any instance, therefore
 * never take more tokens than the bucket holds. Within one instance the takes
 * of one key queue (KeyedMutex), so compare-and-set races only between
 * instances and a burst of requests does not retry in a storm.
 *
 * Expiry: a full bucket needs no document, so a document is deletable once
 * its `tat` has passed; each instance sweeps at most once a minute.
 */
import type { Doc, ReadStore } from '../../../infrastructure/read-store/read-store.port';
import { DuplicateKeyError } from '../../../infrastructure/read-store/read-store.port';
import { KeyedMutex } from '../keyed-mutex';

export const RATE_LIMIT_COLLECTION = 'rate_limits';

/** A bucket: `limit` requests per `periodSec`, refilled continuously. */
export interface BucketSize {
  limit: number;
  periodSec: number;
}

export type RateDecision = { allowed: true; remaining: number } | { allowed: false; retryAfterSec: number };

interface BucketDoc extends Doc {
  /** epoch ms: when the bucket is full again */
  tat: number;
}

/** A compare-and-set lost to a concurrent request is retried; this many losses in a row is a broken store. */
const MAX_ATTEMPTS = 20;
const SWEEP_EVERY_MS = 60_000;

export class TokenBucketLimiter {
  private nextSweepAt = 0;
  private indexCreated = false;
  private readonly queue = new KeyedMutex();

  constructor(
    private readonly store: ReadStore,
    private readonly clock: () => Date,
  ) {}

  /**
   * Takes one token from `bucket` for `key` (the key names the bucket too,
   * e.g. `auth:ip:1.2.3.4`). Allowed: how many tokens are left (a lower bound
   * under concurrency). Refused: whole seconds until one token is back (≥ 1),
   * for `Retry-After`; a refused request takes nothing.
   */
  async take(key: string, bucket: BucketSize): Promise<RateDecision> {
    if (typeof key !== 'string' || key === '') throw new TypeError('a rate-limit key is a non-empty string');
    if (!(bucket.limit >= 1) || !(bucket.periodSec > 0)) throw new RangeError(`a bucket holds ≥ 1 token per period > 0 (got ${bucket.limit}/${bucket.periodSec}s)`);
    return this.queue.run(key, () => this.takeNow(key, bucket));
  }

  private async takeNow(key: string, bucket: BucketSize): Promise<RateDecision> {
    const periodMs = bucket.periodSec * 1000;
    const intervalMs = periodMs / bucket.limit;
    const buckets = this.store.collection<BucketDoc>(RATE_LIMIT_COLLECTION);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const now = this.clock().getTime();
      await this.sweep(now);
      const doc = await buckets.findOne({ _id: key });
      const tat = Math.max(doc?.tat ?? now, now) + intervalMs;
      const ahead = tat - now;
      if (ahead > periodMs + 1e-6) {
        return { allowed: false, retryAfterSec: Math.max(1, Math.ceil((ahead - periodMs) / 1000)) };
      }
      if (await this.compareAndSet(doc, key, tat)) {
        return { allowed: true, remaining: Math.max(0, Math.floor((periodMs - ahead) / intervalMs + 1e-9)) };
      }
    }
    throw new Error(`rate limit bucket ${RATE_LIMIT_COLLECTION}/${key} kept changing under concurrent requests`);
  }

  private async compareAndSet(doc: BucketDoc | null, key: string, tat: number): Promise<boolean> {
    const buckets = this.store.collection<BucketDoc>(RATE_LIMIT_COLLECTION);
    if (doc) {
      const result = await buckets.updateOne({ _id: key, tat: doc.tat }, { $set: { tat } });
      return result.matchedCount === 1;
    }
    try {
      await buckets.insertOne({ _id: key, tat });
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  /** Deletes buckets that are full again (no document means a full bucket), at most once a minute per instance. */
  private async sweep(now: number): Promise<void> {
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + SWEEP_EVERY_MS; // set before awaiting: concurrent takes do not sweep again
    const buckets = this.store.collection<BucketDoc>(RATE_LIMIT_COLLECTION);
    if (!this.indexCreated) {
      await buckets.createIndex({ keys: { tat: 1 }, name: 'tat' });
      this.indexCreated = true;
    }
    await buckets.deleteMany({ tat: { $lte: now } });
  }
}
