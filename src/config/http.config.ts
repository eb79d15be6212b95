/**
 * Limits of the HTTP server, so that slow or greedy clients cannot hold the
 * node's sockets (docs/operations.md, docs/security.md):
 *
 * - HTTP_HEADERS_TIMEOUT_MS (default 10000): a client must send its complete
 *   request head within this time of connecting (or of starting its next
 *   request on a kept-alive connection); a socket that has sent nothing yet
 *   counts too. Node's `server.headersTimeout`.
 * - HTTP_REQUEST_TIMEOUT_MS (default 30000): the whole request, head and
 *   body, must have arrived within this time. It does not bound the response:
 *   a long-lived response (the encounter SSE stream) is not cut. At least
 *   HTTP_HEADERS_TIMEOUT_MS. Node's `server.requestTimeout`.
 * - HTTP_IDLE_TIMEOUT_MS (default 120000): a socket on which nothing was
 *   read or written for this long is closed (a client that stops reading
 *   its response). Must exceed the SSE heartbeat
 *   (SVC_ENCOUNTER_STREAM_HEARTBEAT_SEC), which keeps open streams busy.
 *   Fastify's `connectionTimeout`.
 * - HTTP_KEEP_ALIVE_TIMEOUT_MS (default 72000, Fastify's, above the 60 s
 *   idle time of common load balancers): how long a kept-alive connection
 *   may wait for its next request.
 * - HTTP_MAX_CONNECTIONS_PER_IP (default 256; 0: no cap): open connections
 *   from one client address; a connection over the cap is closed at once.
 *   Behind a reverse proxy every client has the proxy's address: raise it or
 *   set 0 there.
 * - HTTP_MAX_CONNECTIONS (default: the open-file limit less 128 for the
 *   stores and logs, at most 10000; 10000 when the limit cannot be read):
 *   open connections in total (Node's `server.maxConnections`); over it a new
 *   connection is closed at once.
 * - CORS_ORIGINS (default: none, CORS off): the browser origins allowed to
 *   call the API from another site, comma-separated (`https://app.example.com`),
 *   or `*` for any origin. Credentials travel in headers (Authorization,
 *   X-API-Key), never cookies, so no origin gets `Allow-Credentials`.
 * - PUBLIC_BASE_URL (default: none): the URL clients reach this node at
 *   (`https://hive.example.org`, or with a path prefix behind a proxy),
 *   used where the node tells clients its own address (the contest info, its
 *   MCP snippet, the A2A agent cards). Unset: the scheme and the (validated)
 *   Host the request came with.
 * - EMBED_FRAME_ANCESTORS (default `*`): the sites that may frame the embed
 *   pages (/agents/<name>), space- or comma-separated origins, or `*` for
 *   any; the CSP `frame-ancestors` of those pages. Every other page of the
 *   node stays unframeable.
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from './config-error';
import { loadEncounterConfig } from './encounter.config';

export interface HttpConfig {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  idleTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** 0: no cap */
  maxConnectionsPerIp: number;
  maxConnections: number;
  /** origins allowed by CORS: none (off), a list, or any ('*') */
  corsOrigins: readonly string[] | '*';
  /** the node's public base URL without a trailing slash, or null: the request's own scheme and Host */
  publicBaseUrl: string | null;
  /** who may frame the embed pages: CSP frame-ancestors sources ('*' or origins) */
  embedFrameAncestors: readonly string[];
}

type Env = Record<string, string | undefined>;

const HOUR_MS = 3600 * 1000;
/** file descriptors kept for what is not a client connection: the stores, logs, the bus */
const RESERVED_FILES = 128;
const MAX_CONNECTIONS_CEILING = 10000;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = env[name]?.trim();
  if (!value) return fallback;
  if (!/^\d+$/.test(value) || +value < min || +value > max) throw new ConfigError(name, `expected an integer ${min}..${max}, got '${value}'`);
  return Number(value);
}

/** The soft open-file limit (`ulimit -n`) of this process, or null where it cannot be read (not Linux). */
export function openFileLimit(read: () => string = () => readFileSync('/proc/self/limits', 'utf8')): number | null {
  try {
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(read());
    if (!match) return null;
    return match[1] === 'unlimited' ? Number.POSITIVE_INFINITY : Number(match[1]);
  } catch {
    return null;
  }
}

/** The default total cap: what the open-file limit leaves for sockets, at most 10000. */
export function defaultMaxConnections(fileLimit: number | null): number {
  if (fileLimit === null) return MAX_CONNECTIONS_CEILING;
  return Math.max(1, Math.min(MAX_CONNECTIONS_CEILING, fileLimit - RESERVED_FILES));
}

const ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/;

function corsOrigins(env: Env): readonly string[] | '*' {
  const value = env.CORS_ORIGINS?.trim();
  if (!value) return [];
  if (value === '*') return '*';
  const origins = value.split(',').map((origin) => origin.trim().replace(/\/$/, '')).filter(Boolean);
  const bad = origins.find((origin) => !ORIGIN.test(origin));
  if (bad !== undefined) throw new ConfigError('CORS_ORIGINS', `expected origins such as https://app.example.com (scheme, host, port), or *, got '${bad}'`);
  return origins;
}

function publicBaseUrl(env: Env): string | null {
  const value = env.PUBLIC_BASE_URL?.trim();
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError('PUBLIC_BASE_URL', `expected a URL such as https://hive.example.org, got '${value}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError('PUBLIC_BASE_URL', `expected an http or https URL, got '${value}'`);
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigError('PUBLIC_BASE_URL', `expected no credentials, query or fragment, got '${value}'`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function embedFrameAncestors(env: Env): readonly string[] {
  const value = env.EMBED_FRAME_ANCESTORS?.trim();
  if (!value || value === '*') return ['*'];
  const origins = value.split(/[\s,]+/).map((origin) => origin.replace(/\/$/, '')).filter(Boolean);
  const bad = origins.find((origin) => !ORIGIN.test(origin));
  if (bad !== undefined) throw new ConfigError('EMBED_FRAME_ANCESTORS', `expected origins such as https://shop.example (scheme, host, port), or *, got '${bad}'`);
  return origins;
}

export function loadHttpConfig(env: Env, fileLimit: number | null = openFileLimit()): HttpConfig {
  const headersTimeoutMs = integer(env, 'HTTP_HEADERS_TIMEOUT_MS', 10_000, 100, HOUR_MS);
  const requestTimeoutMs = integer(env, 'HTTP_REQUEST_TIMEOUT_MS', 30_000, 100, HOUR_MS);
  if (requestTimeoutMs < headersTimeoutMs) {
    throw new ConfigError('HTTP_REQUEST_TIMEOUT_MS', `must be at least HTTP_HEADERS_TIMEOUT_MS (${headersTimeoutMs}), got ${requestTimeoutMs}`);
  }
  const idleTimeoutMs = integer(env, 'HTTP_IDLE_TIMEOUT_MS', 120_000, 100, HOUR_MS);
  const heartbeatMs = loadEncounterConfig(env).streamHeartbeatSec * 1000;
  if (idleTimeoutMs <= heartbeatMs) {
    throw new ConfigError('HTTP_IDLE_TIMEOUT_MS', `must exceed the SSE heartbeat SVC_ENCOUNTER_STREAM_HEARTBEAT_SEC (${heartbeatMs} ms), got ${idleTimeoutMs}`);
  }
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    idleTimeoutMs,
    keepAliveTimeoutMs: integer(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 72_000, 100, HOUR_MS),
    maxConnectionsPerIp: integer(env, 'HTTP_MAX_CONNECTIONS_PER_IP', 256, 0, 1_000_000),
    maxConnections: integer(env, 'HTTP_MAX_CONNECTIONS', defaultMaxConnections(fileLimit), 1, 1_000_000),
    corsOrigins: corsOrigins(env),
    publicBaseUrl: publicBaseUrl(env),
    embedFrameAncestors: embedFrameAncestors(env),
  };
}
