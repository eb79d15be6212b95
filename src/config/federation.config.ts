/**
 * Federation (issue 17, item 2; docs/operations.md, "Regional nodes"):
 *
 * - FEDERATION_UPSTREAM_URL: the central node's base URL. With
 *   SVC_NODE_TIER=regional the node then replays central's log and refuses
 *   writes of its own (a regional node without it stands alone, as before
 *   federation); refused on another tier.
 * - FEDERATION_PUBLIC_URL: the URL this node registers with central
 *   (default `http://<HOST>:<PORT>`).
 * - FEDERATION_AUTO_ACCEPT=1: central approves a registering node at once
 *   (tests and labs); otherwise an admin approves it.
 * - FEDERATION_PAGE_SIZE (default 500): events per page a regional node pulls.
 * - FEDERATION_WAIT_SECONDS (default 20, at most 30): how long a caught-up
 *   regional node's long poll waits for new events.
 * - SOCIAL_BRAND (default `agent-platform`): the platform's name in its
 *   discovery descriptor, served at `/.well-known/<brand>-social.json`.
 *
 * The hierarchical sync queue and the peer network (social-routes §19):
 * - SYNC_PARENT_URL: the parent node's base URL; with it, this node queues
 *   its new posts (`sync_post`) and the sender sends the queue there
 *   (POST <parent>/api/social/hierarchy/sync, node-signed). Refused on a
 *   node that replays an upstream log (it writes nothing of its own).
 * - SYNC_PARENT_TIER (default `central`): `regional` or `central`, the
 *   items' target_tier.
 * - SYNC_INTERVAL_MS (default 30000; 0: the sender does not run): how often
 *   the sender sends a batch.
 * - SYNC_BATCH_SIZE (default 50, 1..500): items per batch.
 * - SYNC_QUEUE_CAP (default 10000): queued and failed items at most; beyond
 *   it new items are dropped and counted.
 * - SYNC_TIMEOUT_MS (default 10000): the bound of one batch request, and of
 *   one outbox pull or follow notification.
 * - FEDERATION_ALLOW_PRIVATE (default false): allow /federation/pull and
 *   /federation/follow to reach loopback, private and other non-public
 *   addresses (a LAN, tests); off, such peer URLs are refused.
 */
import { ConfigError } from './config-error';
import type { NodeTier } from './node-tier';

export interface FederationConfig {
  upstreamUrl: string | null;
  publicUrl: string;
  autoAccept: boolean;
  pageSize: number;
  waitSeconds: number;
  /** the platform's name in the discovery descriptor (SOCIAL_BRAND) */
  brand: string;
  /** the hierarchical sync queue's sender (SYNC_*) */
  sync: SyncSenderConfig;
  /** peer URLs may be non-public addresses (FEDERATION_ALLOW_PRIVATE) */
  allowPrivatePeers: boolean;
}

export interface SyncSenderConfig {
  /** null: this node has no parent; nothing is queued or sent */
  parentUrl: string | null;
  parentTier: 'regional' | 'central';
  /** 0: the sender does not run */
  intervalMs: number;
  batchSize: number;
  queueCap: number;
  timeoutMs: number;
}

/** The most a long poll of GET /federation/log may wait. */
export const MAX_LOG_WAIT_SECONDS = 30;

type Env = Record<string, string | undefined>;

export function loadFederationConfig(env: Env, nodeTier: NodeTier, host: string, port: number): FederationConfig {
  const upstream = env.FEDERATION_UPSTREAM_URL?.trim() || null;
  if (nodeTier !== 'regional' && upstream) throw new ConfigError('FEDERATION_UPSTREAM_URL', 'only a regional node (SVC_NODE_TIER=regional) replays an upstream log');
  const publicUrl = env.FEDERATION_PUBLIC_URL?.trim() || `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  for (const [name, value] of [['FEDERATION_UPSTREAM_URL', upstream], ['FEDERATION_PUBLIC_URL', publicUrl]] as const) {
    if (value !== null && !/^https?:\/\/[^\s]+$/.test(value)) throw new ConfigError(name, `expected an http(s) URL, got '${value}'`);
  }
  return {
    upstreamUrl: upstream,
    publicUrl,
    autoAccept: ['1', 'true', 'yes'].includes((env.FEDERATION_AUTO_ACCEPT ?? '').trim().toLowerCase()),
    pageSize: whole(env, 'FEDERATION_PAGE_SIZE', 500, 1, 1000),
    waitSeconds: whole(env, 'FEDERATION_WAIT_SECONDS', 20, 0, MAX_LOG_WAIT_SECONDS),
    brand: brand(env),
    sync: syncSender(env, upstream),
    allowPrivatePeers: ['1', 'true', 'yes'].includes((env.FEDERATION_ALLOW_PRIVATE ?? '').trim().toLowerCase()),
  };
}

function syncSender(env: Env, upstream: string | null): SyncSenderConfig {
  const parentUrl = env.SYNC_PARENT_URL?.trim() || null;
  if (parentUrl !== null && !/^https?:\/\/[^\s]+$/.test(parentUrl)) throw new ConfigError('SYNC_PARENT_URL', `expected an http(s) URL, got '${parentUrl}'`);
  if (parentUrl !== null && upstream !== null) throw new ConfigError('SYNC_PARENT_URL', 'a node that replays FEDERATION_UPSTREAM_URL writes nothing of its own to send');
  const tier = env.SYNC_PARENT_TIER?.trim() || 'central';
  if (tier !== 'regional' && tier !== 'central') throw new ConfigError('SYNC_PARENT_TIER', `expected regional or central, got '${tier}'`);
  const interval = whole(env, 'SYNC_INTERVAL_MS', 30_000, 0, 24 * 3600_000);
  if (interval !== 0 && interval < 50) throw new ConfigError('SYNC_INTERVAL_MS', `expected 0 (off) or at least 50, got '${interval}'`);
  return {
    parentUrl: parentUrl?.replace(/\/+$/, '') ?? null,
    parentTier: tier,
    intervalMs: interval,
    batchSize: whole(env, 'SYNC_BATCH_SIZE', 50, 1, 500),
    queueCap: whole(env, 'SYNC_QUEUE_CAP', 10_000, 1, 1_000_000),
    timeoutMs: whole(env, 'SYNC_TIMEOUT_MS', 10_000, 100, 120_000),
  };
}

function brand(env: Env): string {
  const value = env.SOCIAL_BRAND?.trim() || 'agent-platform';
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(value)) throw new ConfigError('SOCIAL_BRAND', `expected 1-63 lowercase letters, digits or -, got '${value}'`);
  return value;
}

function whole(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = env[name]?.trim();
  if (!value) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(name, `expected a whole number from ${min} to ${max}, got '${value}'`);
  return n;
}
