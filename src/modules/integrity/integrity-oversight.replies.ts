/** Reply schemas of the §20 oversight routes. */
import { bool, envelope, int, list, num, obj, oneOf, orNull, str } from '../common/openapi';
import { ALERT_SEVERITIES, ALERT_STATUSES } from '../../aggregates/integrity/node-standing';

const hex = (bytes: number) => str({ pattern: `^[0-9a-f]{${bytes * 2}}$` });
const time = str({ format: 'date-time' });

export const WITNESS_REPLY = {
  anyOf: [
    obj({
      success: { const: true },
      witnessed: { const: true },
      witness: obj({
        impression_id: str(),
        ad_id: str(),
        nonce: str(),
        requester_node_id: str(),
        requester_timestamp: { anyOf: [int(), str()] },
        witness_node_id: str(),
        witnessed_at: time,
      }),
      witness_signature: { ...hex(64), description: 'Ed25519 by this node over the canonical JSON of `witness`' },
      witness_public_key: hex(32),
    }),
    obj({ success: { const: true }, witnessed: { const: false }, reason: str() }),
  ],
};

export const PEER_STATS = obj({
  success: { const: true },
  node_id: str(),
  agent_count: int(),
  post_count: int(),
  contribution_score: num(),
  last_seen: orNull(time),
  status: oneOf(['self', 'active', 'pending', 'banned']),
});

export const GUARDRAIL_HASH = obj({ node_id: str(), guardrail_hash: hex(32), guardrail_hash_live: hex(32), consistent: bool() });
export const EXPECTED_HASH = obj({ version: str(), code_hash: orNull(hex(32)) });
export const REGISTER_NODE_RESULT = obj({ success: { const: true }, registered: bool(), code_hash_matches: orNull(bool()) });
export const TRUSTED_KEYS = obj({ keys: obj({}, [], { additionalProperties: hex(32) }) });

export const ALERT = obj({
  id: str(),
  node_id: str(),
  alert_type: str(),
  severity: oneOf(ALERT_SEVERITIES),
  description: str(),
  evidence: { type: 'object', additionalProperties: true },
  fraud_score_delta: int(),
  status: oneOf(ALERT_STATUSES),
  reviewed_by: orNull(str()),
  reviewed_at: orNull(time),
  created_at: time,
});
export const ALERTS_PAGE_REPLY = obj({ success: { const: true }, data: list(ALERT), meta: obj({ total: int(), limit: int(), offset: int(), has_more: bool() }) });
export const ALERT_REPLY = envelope(ALERT);

export const AUDIT_OUTCOME = envelope(
  obj({ node_id: str(), fraud_score: int(), fraud_score_before: int(), decay: int(), banned: bool(), alerts: list(ALERT), audited_at: time }),
);

export const BOOT_STATUS = obj({
  enforcement_mode: oneOf(['off', 'soft', 'hard']),
  dev_mode: bool(),
  runtime_healthy: bool(),
  monitor_active: bool(),
  release_version: str(),
  manifest_present: bool(),
  hsm: bool(),
  hsm_trust: str(),
  registry_mode: bool(),
  guardrails_consistent: bool(),
});

export const DASHBOARD = envelope({ type: 'object', additionalProperties: true, description: 'alert, challenge and node counts, the highest fraud scores' });

export const AUDIT_COVERAGE = envelope(
  obj({
    nodes: list(obj({ node_id: str(), tier: str(), compute_units: num(), auditor_count: int(), auditor_compute_units: num(), outcomputed: bool() })),
    covered: int(),
    uncovered: int(),
  }),
);
