/**
 * The A2A endpoint (SPEC §4.6):
 * (The cards' `url` is built from PUBLIC_BASE_URL, http.config.ts.)
 * - A2A_GATEWAY_URLS: comma-separated gateway URLs whose
 *   `/.well-known/agent.json` is probed for A2A-compatible peers (none by default).
 * - A2A_PROBE_TIMEOUT_MS (default 3000): the bound of one probe, connection to last byte.
 * - A2A_PROBE_ALLOW_PRIVATE (default false): allow probing loopback,
 *   private, link-local and other non-public addresses (a LAN federation, tests).
 */
import { ConfigError } from './config-error';

export interface A2aConfig {
  gatewayUrls: string[];
  probeTimeoutMs: number;
  probeAllowPrivate: boolean;
}

type Env = Record<string, string | undefined>;

export function httpUrl(name: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(name, `expected an http(s) URL, got '${value}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(name, `expected an http(s) URL, got '${value}'`);
  if (url.username || url.password || url.search || url.hash) throw new ConfigError(name, `expected a URL without credentials, query or fragment, got '${value}'`);
  return url;
}

export const withoutTrailingSlash = (url: URL): string => url.toString().replace(/\/+$/, '');

export function loadA2aConfig(env: Env): A2aConfig {
  const timeout = env.A2A_PROBE_TIMEOUT_MS?.trim();
  if (timeout && (!/^\d+$/.test(timeout) || +timeout < 100 || +timeout > 60000)) throw new ConfigError('A2A_PROBE_TIMEOUT_MS', `expected an integer 100..60000, got '${timeout}'`);
  const allow = env.A2A_PROBE_ALLOW_PRIVATE?.trim().toLowerCase();
  if (allow && !['true', 'false', '1', '0'].includes(allow)) throw new ConfigError('A2A_PROBE_ALLOW_PRIVATE', `expected true or false, got '${allow}'`);
  return {
    gatewayUrls: (env.A2A_GATEWAY_URLS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => withoutTrailingSlash(httpUrl('A2A_GATEWAY_URLS', s))),
    probeTimeoutMs: timeout ? Number(timeout) : 3000,
    probeAllowPrivate: allow === 'true' || allow === '1',
  };
}
