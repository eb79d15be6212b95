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
