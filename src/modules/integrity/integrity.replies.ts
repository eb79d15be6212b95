/** Reply schemas of the integrity routes (raw replies, social-routes §20). */
import { bool, int, type JsonSchema, list, obj, oneOf, orNull, str } from '../common/openapi';

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

const time = str({ format: 'date-time' });

export const CHALLENGE_RECORD = obj({
  id: str(),
  challenger_node_id: str(),
  target_node_id: str(),
  challenge_type: str(),
  challenge_nonce: str(),
  status: oneOf(['pending', 'passed', 'failed']),
  result_details: orNull(str()),
  created_at: time,
  responded_at: orNull(time),
  evaluated_at: orNull(time),
});

/** POST /integrity/challenges: the record after the round, and whether the challenge reached its target. */
export const ISSUED_CHALLENGE = obj({
  ...(CHALLENGE_RECORD.properties as Record<string, JsonSchema>),
  delivery: obj(
    { attempted: bool({ description: 'false: no URL is known for the target; its answer is awaited at POST /integrity/challenge-response' }), delivered: bool(), error: orNull(str()) },
    [],
    { description: 'the challenge sent to the target at once (node-signed POST /integrity/challenge) and its signed answer evaluated' },
  ),
});

export const CHALLENGE_RECORDS_PAGE = obj({
  success: { const: true },
  data: list(CHALLENGE_RECORD),
  meta: obj({ total: int(), limit: int(), offset: int(), has_more: bool() }),
});

export const CHALLENGE_EVALUATION = obj({ success: { const: true }, passed: bool(), details: str() });

export const NODE_BAN_RESULT = obj({ success: { const: true }, action: oneOf(['ban', 'unban']), node_id: str(), banned: bool() });
export const BAN_LIST = obj({ banned_node_ids: list(str()) });
