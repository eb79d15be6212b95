/**
 * Referrals and share links (social-routes §14):
 * - SHARE_BASE_URL: the site a share link points at when the request names
 *   no base_url (POST /share/generate-link). Default: this node's public URL
 *   (FEDERATION_PUBLIC_URL, else http://HOST:PORT), the one address of the
 *   service the configuration knows; a deployment with a public web site sets
 *   it. An http(s) URL; a trailing slash is dropped.
 */
import { ConfigError } from './config-error';

export interface ReferralsConfig {
  shareBaseUrl: string;
}

export function loadReferralsConfig(env: Record<string, string | undefined>, publicUrl: string): ReferralsConfig {
  const value = env.SHARE_BASE_URL?.trim() || publicUrl;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError('SHARE_BASE_URL', `expected an http(s) URL, got '${value}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError('SHARE_BASE_URL', `expected an http(s) URL, got '${value}'`);
  return { shareBaseUrl: value.replace(/\/+$/, '') };
}
