/**
 * What an audit round finds against a node (POST /integrity/node/{id}/audit),
 * from this node's own records of it; each finding counts once (its key)
 * however many rounds see it (aggregates/integrity/node-standing.ts):
 *
 * - a challenge it failed (nonce or signature mismatch): high, +25;
 * - a challenge it left unanswered for an hour: medium, +10;
 * - a code hash registered here that is not the one expected for its
 *   version (registry mode, enforcement off): critical, +40.
 *
 * The audit does not reach out to the node: the challenges are issued and
 * answered over POST /integrity/challenges and /integrity/challenge-response.
 */
import type { AuditFinding } from '../../aggregates/integrity/node-standing';

export const FAILED_CHALLENGE_DELTA = 25;
export const UNANSWERED_CHALLENGE_DELTA = 10;
export const CODE_HASH_MISMATCH_DELTA = 40;
export const UNANSWERED_AFTER_MS = 60 * 60 * 1000;

export interface AuditRecords {
  challenges: { id: string; challenge_type: string; status: string; result_details: string | null; created_at: string }[];
  registration: { code_hash: string | null; version: string | null; code_hash_matches: boolean | null; expected_hash: string | null } | null;
}

export function auditFindings(records: AuditRecords, now: Date): AuditFinding[] {
  const findings: AuditFinding[] = [];
  for (const c of records.challenges) {
    if (c.status === 'failed') {
      findings.push({
        key: `challenge:${c.id}`,
        alertType: 'challenge_failed',
        severity: 'high',
        description: `failed the ${c.challenge_type} challenge ${c.id}: ${c.result_details ?? 'no details'}`,
        evidence: { challenge_id: c.id, challenge_type: c.challenge_type, details: c.result_details },
        fraudScoreDelta: FAILED_CHALLENGE_DELTA,
      });
    } else if (c.status === 'pending' && now.getTime() - Date.parse(c.created_at) >= UNANSWERED_AFTER_MS) {
      findings.push({
        key: `unanswered:${c.id}`,
        alertType: 'challenge_unanswered',
        severity: 'medium',
        description: `left the ${c.challenge_type} challenge ${c.id} unanswered for an hour or more`,
        evidence: { challenge_id: c.id, challenge_type: c.challenge_type, issued_at: c.created_at },
        fraudScoreDelta: UNANSWERED_CHALLENGE_DELTA,
      });
    }
  }
  const r = records.registration;
  if (r && r.code_hash_matches === false) {
    findings.push({
      key: `code_hash:${r.version ?? ''}:${r.code_hash ?? ''}`,
      alertType: 'code_hash_mismatch',
      severity: 'critical',
      description: `registered code hash for version ${r.version ?? '?'} is not the expected one`,
      evidence: { version: r.version, code_hash: r.code_hash, expected_hash: r.expected_hash },
      fraudScoreDelta: CODE_HASH_MISMATCH_DELTA,
    });
  }
  return findings;
}
