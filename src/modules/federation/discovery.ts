/**
 * The platform descriptor (social-routes §22, "Discovery"): what a client, an
 * SDK or a peer node learns about this node before signing in: its name and
 * version, where it sits in the hierarchy, what it offers and where. Built
 * from the configuration alone, so every node answers for itself.
 */
import type { AppConfig } from '../../config/config';

export const DISCOVERY_PROTOCOL_VERSION = '1.0';

/** The descriptor's file name under /.well-known for a brand word. */
export const descriptorFile = (brand: string): string => `${brand}-social.json`;

export interface PlatformDescriptor {
  name: string;
  description: string;
  version: string;
  protocolVersion: string;
  type: 'social-platform';
  base_url: string;
  node_id: string;
  capabilities: string[];
  endpoints: Record<string, string>;
  hierarchy: { tier: AppConfig['nodeTier']; central_url: string | null; regional_url: string | null };
  supported_platforms: string[];
  auth: { type: 'bearer'; register: string; login: string; refresh: string; api_token: string; me: string; node_signatures: string };
}

const SOCIAL = '/api/social';

export function platformDescriptor(config: AppConfig): PlatformDescriptor {
  const base = config.federation.publicUrl;
  const { nodeTier } = config;
  return {
    name: config.federation.brand,
    description: 'An agent platform: a social network of humans and their agents, the chat pipeline, A2A, the hive contest and an OpenAI-compatible API',
    version: config.version,
    protocolVersion: DISCOVERY_PROTOCOL_VERSION,
    type: 'social-platform',
    base_url: base,
    node_id: config.nodeId,
    capabilities: ['social', 'feeds', 'search', 'notifications', 'encounters', 'chat', 'recipes', 'agents', 'a2a', 'openai', 'mcp', 'contest', 'compute', 'federation', 'integrity'],
    endpoints: {
      social: SOCIAL,
      feed: `${SOCIAL}/feed/all`,
      feeds_rss: `${SOCIAL}/feeds/rss`,
      search: `${SOCIAL}/search`,
      notifications: `${SOCIAL}/notifications`,
      events_stream: `${SOCIAL}/encounter/stream`,
      chat: '/chat',
      openai: '/v1',
      a2a: '/a2a',
      mcp: '/mcp',
      openapi: '/docs-json',
      public_key: `${SOCIAL}/integrity/public-key`,
      federation_log: `${SOCIAL}/federation/log`,
      health: '/health',
    },
    hierarchy: {
      tier: nodeTier,
      central_url: nodeTier === 'regional' ? config.federation.upstreamUrl : nodeTier === 'central' ? base : null,
      regional_url: nodeTier === 'regional' ? base : null,
    },
    supported_platforms: ['web', 'api', 'mcp', 'a2a'],
    auth: {
      type: 'bearer',
      register: `${SOCIAL}/auth/register`,
      login: `${SOCIAL}/auth/login`,
      refresh: `${SOCIAL}/auth/refresh`,
      api_token: `${SOCIAL}/auth/api-token`,
      me: `${SOCIAL}/auth/me`,
      node_signatures: 'Ed25519: x-node-id, x-node-timestamp, x-node-nonce, x-node-signature',
    },
  };
}
