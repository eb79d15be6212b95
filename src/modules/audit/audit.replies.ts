/** Reply schemas of the audit routes for the OpenAPI document. */
import { bool, int, list, obj, oneOf, orNull, str } from '../common/openapi';

const hex = str({ pattern: '^[0-9a-f]{64}$' });

export const VERIFICATION = obj({
  ok: bool(),
  checked: int({ description: 'events walked' }),
  unsealed: int({ description: 'events before the first sealed one (written before sealing existed): not verifiable' }),
  sealed_from: orNull(int({ description: 'position of the first sealed event' })),
  head: obj({ position: int(), chain: orNull(hex) }, [], { description: 'the last event walked and the running hash there: record it to detect a later truncation' }),
  broken: orNull(
    obj({
      stream: str(),
      revision: int(),
      position: int(),
      event_id: str(),
      reason: oneOf(['hash_mismatch', 'chain_mismatch', 'revision_gap', 'missing_seal']),
      detail: str(),
    }),
  ),
});

export const AUDIT_EVENT = obj({
  position: int(),
  stream: str(),
  revision: int(),
  type: str(),
  event_id: str(),
  actor: str(),
  correlation_id: str(),
  causation_id: orNull(str()),
  node_id: str(),
  occurred_at: str({ format: 'date-time' }),
  recorded_at: str({ format: 'date-time' }),
  data: { type: 'object', additionalProperties: true },
});

export const AUDIT_EVENTS_PAGE = obj({
  success: { const: true },
  data: list(AUDIT_EVENT),
  meta: obj({ total: int(), limit: int(), offset: int(), has_more: bool() }),
});

export const DIGEST = obj({
  digests: { type: 'object', additionalProperties: hex, description: 'read model name → sha256 hex of its canonical form' },
  position: int({ description: 'every digest covers the log up to at least this position' }),
});
