/** Reply schemas of the integrity routes (raw replies, social-routes §20). */
import { int, obj, str } from '../common/openapi';

const hex = (bytes: number) => str({ pattern: `^[0-9a-f]{${bytes * 2}}$` });

export const PUBLIC_KEY = obj({ node_id: str(), public_key: hex(32) });

export const CODE_HASH = obj({
  node_id: str(),
  code_hash: hex(32),
  version: str(),
  public_key: hex(32),
  signature: { ...hex(64), description: 'Ed25519 signature of the canonical JSON (sorted keys) of the other four fields' },
});

export const CHALLENGE_ANSWER = obj({
  success: { const: true },
  response: {
    type: 'object',
    additionalProperties: true,
    required: ['type', 'nonce', 'timestamp', 'node_id', 'public_key'],
    properties: { type: str(), nonce: str(), timestamp: str({ format: 'date-time' }), node_id: str(), public_key: hex(32), code_hash: hex(32), version: str(), head_position: int() },
  },
  signature: { ...hex(64), description: 'Ed25519 signature of the canonical JSON (sorted keys) of `response`' },
});
