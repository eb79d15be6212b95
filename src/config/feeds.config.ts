/**
 * Fetching feeds for /feeds/preview and /feeds/import (social-routes §7):
 * - FEED_FETCH_TIMEOUT_MS (default 5000): the bound of one fetch, connection to last byte.
 * - FEED_FETCH_ALLOW_PRIVATE (default false): allow loopback, private and
 *   other non-public addresses (a LAN, tests). Off: such URLs are refused.
 * - FEED_POLL_INTERVAL_MS (default 900000, 15 minutes; 0 turns the poller
 *   off): how often the feed poller reads the auto-import subscriptions.
 */
import { ConfigError } from './config-error';

export interface FeedsConfig {
  fetchTimeoutMs: number;
  allowPrivate: boolean;
  /** 0: the feed poller does not run */
  pollIntervalMs: number;
}

export function loadFeedsConfig(env: Record<string, string | undefined>): FeedsConfig {
  const timeout = env.FEED_FETCH_TIMEOUT_MS?.trim();
  if (timeout && (!/^\d+$/.test(timeout) || +timeout < 100 || +timeout > 60000)) throw new ConfigError('FEED_FETCH_TIMEOUT_MS', `expected an integer 100..60000, got '${timeout}'`);
  const allow = env.FEED_FETCH_ALLOW_PRIVATE?.trim().toLowerCase();
  if (allow && !['true', 'false', '1', '0'].includes(allow)) throw new ConfigError('FEED_FETCH_ALLOW_PRIVATE', `expected true or false, got '${allow}'`);
  const poll = env.FEED_POLL_INTERVAL_MS?.trim();
  if (poll && (!/^\d+$/.test(poll) || (+poll !== 0 && +poll < 100) || +poll > 7 * 24 * 3600 * 1000)) {
    throw new ConfigError('FEED_POLL_INTERVAL_MS', `expected 0 (off) or an integer 100..604800000, got '${poll}'`);
  }
  return { fetchTimeoutMs: timeout ? Number(timeout) : 5000, allowPrivate: allow === 'true' || allow === '1', pollIntervalMs: poll ? Number(poll) : 15 * 60 * 1000 };
}
