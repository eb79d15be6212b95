/** Reply schemas of the federation routes for the OpenAPI document. */
import { bool, int, list, obj, oneOf, orNull, str } from '../common/openapi';

const hex64 = str({ pattern: '^[0-9a-f]{64}$' });
const time = str({ format: 'date-time' });

export const FEDERATION_NODE = obj({
  node_id: str(),
  public_key: hex64,
  url: str(),
  tier: oneOf(['regional', 'central', 'flat']),
  status: oneOf(['pending', 'approved']),
});

export const FEDERATION_NODE_VIEW = obj({
  ...(FEDERATION_NODE.properties as Record<string, object>),
  registered_at: time,
  approved_at: orNull(time),
  approved_by: orNull(str()),
});

export const FEDERATION_NODES_PAGE = obj({
  success: { const: true },
  data: list(FEDERATION_NODE_VIEW),
  meta: obj({ total: int(), limit: int(), offset: int(), has_more: bool() }),
});

export const LOG_EVENT = obj({
  position: int({ description: 'the event’s position in this node’s log' }),
  event_id: str(),
  stream: str(),
  revision: int(),
  type: str(),
  data: { type: 'object', additionalProperties: true },
  metadata: { type: 'object', additionalProperties: true },
  seal: orNull(obj({ hash: hex64, chain: hex64 })),
});

export const LOG_PAGE = obj({
  events: list(LOG_EVENT),
  head: int({ description: 'the position of this node’s last event when the page was read' }),
  keys: list(
    obj({ subject: str(), purpose: str(), version: int(), key: str({ description: 'the data key, base64 (AES-256)' }) }),
    { description: 'the live data keys of the personal fields sealed in these events (crypto-shredding); an erased key is never sent' },
  ),
});

export const PLATFORM_DESCRIPTOR = obj({
  name: str(),
  description: str(),
  version: str(),
  protocolVersion: str(),
  type: { const: 'social-platform' },
  base_url: str(),
  node_id: str(),
  capabilities: list(str()),
  endpoints: obj({}, [], { additionalProperties: str() }),
  hierarchy: obj({ tier: oneOf(['flat', 'regional', 'central']), central_url: orNull(str()), regional_url: orNull(str()) }),
  supported_platforms: list(str()),
  auth: obj({ type: { const: 'bearer' }, register: str(), login: str(), refresh: str(), api_token: str(), me: str(), node_signatures: str() }),
});
