/**
 * The /chat rate limit (SPEC §8): 30 requests per minute per user or IP,
 * shared by every service instance through the read store.
 *
 * Fixed windows: one counter document per key and window, `_id` =
 * `${key}:${windowStartMs}`, taken with ONE atomic conditional upsert per
 * request (the API-key daily quota's technique): the filter matches only while
 * `count < limit`; at the limit the upsert tries to insert the same `_id` and
 * raises DuplicateKeyError. Concurrent requests, from this or any instance,
 * therefore never exceed the limit within a window.
 *
 * Why fixed and not sliding: it is exact (a request is counted or refused, no
 * weighting estimate), costs one write, and `Retry-After` is exact (the end of
 * the window). The price is a burst at a window boundary: up to 2 × limit in a
 * short span across two windows. For an abuse limit of 30/min that is
 * acceptable; no single calendar window ever sees more than the limit.
 *
 * Expiry: the port has no TTL index, so each instance deletes expired counters
 * at most once per window (one deleteMany). A counter is kept one window past
 * its end, so an instance whose clock lags a little still finds its counter.
 */
import type { Doc, ReadStore } from '../../../infrastructure/read-store/read-store.port';
import { DuplicateKeyError } from '../../../infrastructure/read-store/read-store.port';

export const CHAT_RATE_LIMIT_COLLECTION = 'chat_rate_limits';

export type RateLimitDecision = { allowed: true; remaining: number } | { allowed: false; retryAfterSec: number };

interface WindowCounter extends Doc {
  key: string;
  window_start: number;
  count: number;
  /** epoch ms after which the sweep may delete the counter */
  expires_at: number;
}

/** Upserts racing to create the same window's counter (MongoDB) can clash once; more is a broken store. */
const MAX_ATTEMPTS = 3;

/**
 * The key for /chat: the authenticated user when there is one, else the client
 * IP. Never the body's user_id of an anonymous caller: rotating it would dodge
 * the limit.
 */
export function chatRateLimitKey(caller: { authenticatedUserId?: string | null; ip: string }): string {
  return caller.authenticatedUserId ? `user:${caller.authenticatedUserId}` : `ip:${caller.ip}`;
}

export class ChatRateLimiter {
  private readonly windowMs: number;
  private nextSweepAt = 0;
  private indexCreated = false;

  constructor(
    private readonly store: ReadStore,
    private readonly clock: () => Date,
    private readonly limit = 30,
    windowSec = 60,
  ) {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`limit must be an integer ≥ 1 (got ${limit})`);
    if (!Number.isSafeInteger(windowSec) || windowSec < 1) {
      throw new RangeError(`windowSec must be an integer ≥ 1 (got ${windowSec})`);
    }
    this.windowMs = windowSec * 1000;
  }

  /**
   * Counts one request for `key` (e.g. from chatRateLimitKey). Allowed: how
   * many more this window allows (a lower bound under concurrency). Refused:
   * whole seconds until the window ends (≥ 1), for `Retry-After`; a refused
   * request is not counted.
   */
  async take(key: string): Promise<RateLimitDecision> {
    if (typeof key !== 'string' || key === '') throw new TypeError('a rate-limit key is a non-empty string');
    const now = this.clock().getTime();
    const windowStart = Math.floor(now / this.windowMs) * this.windowMs;
    const windowEnd = windowStart + this.windowMs;
    const id = `${key}:${windowStart}`;
    await this.sweep(now, windowEnd);
    const counters = this.store.collection<WindowCounter>(CHAT_RATE_LIMIT_COLLECTION);

    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      try {
        const result = await counters.updateOne(
          { _id: id, count: { $lt: this.limit } },
          { $inc: { count: 1 }, $setOnInsert: { key, window_start: windowStart, expires_at: windowEnd + this.windowMs } },
          { upsert: true },
        );
        if (result.upsertedCount === 1) return { allowed: true, remaining: this.limit - 1 };
        // read after the increment: other requests may have counted too, so this is a lower bound
        const counter = await counters.findOne({ _id: id });
        return { allowed: true, remaining: Math.max(0, this.limit - (counter?.count ?? this.limit)) };
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
        // Either the window is full, or another instance created its counter between our
        // match and our insert (MongoDB does not retry an upsert whose filter has extra
        // conditions). Only a full counter refuses; otherwise try again.
        const counter = await counters.findOne({ _id: id });
        if (counter && counter.count >= this.limit) {
          return { allowed: false, retryAfterSec: Math.max(1, Math.ceil((windowEnd - now) / 1000)) };
        }
      }
    }
    throw new Error(`rate limit counter ${CHAT_RATE_LIMIT_COLLECTION}/${id} kept clashing`);
  }

  /** Deletes expired counters, at most once per window per instance. */
  private async sweep(now: number, windowEnd: number): Promise<void> {
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = windowEnd; // set before awaiting: concurrent takes do not sweep again
    const counters = this.store.collection<WindowCounter>(CHAT_RATE_LIMIT_COLLECTION);
    if (!this.indexCreated) {
      await counters.createIndex({ keys: { expires_at: 1 }, name: 'expires_at' });
      this.indexCreated = true;
    }
    await counters.deleteMany({ expires_at: { $lte: now } });
  }
}
