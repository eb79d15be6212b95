/**
 * What an audit round finds against a node (POST /integrity/node/{id}/audit),
 * from this node's own records of it; each finding counts once (its key)
 * however many rounds see it (aggregates/integrity/node-standing.ts):
 *
 * - a challenge it failed (nonce or signature mismatch): high, +25;
 * - a challenge it left unanswered for an hour: medium, +10;
 * - a code hash registered here that is not the one expected for its
 *   version (registry mode, enforcement off), or one the node itself
 *   reported in the round's signed `code_hash_check` answer: critical, +40.
 *
 * The round reaches out to the node when this node knows its URL: a
 * `code_hash_check` challenge is sent and its answer evaluated before the
 * findings are read (challenge-rounds.ts), so a wrong nonce or signature is
 * a failed challenge of this very round, and the hash it reports is weighed.
 */
import type { AuditFinding } from '../../aggregates/integrity/node-standing';

export const FAILED_CHALLENGE_DELTA = 25;
export const UNANSWERED_CHALLENGE_DELTA = 10;
export const CODE_HASH_MISMATCH_DELTA = 40;
export const UNANSWERED_AFTER_MS = 60 * 60 * 1000;

export interface AuditRecords {
  challenges: { id: string; challenge_type: string; status: string; result_details: string | null; created_at: string }[];
  registration: { code_hash: string | null; version: string | null; code_hash_matches: boolean | null; expected_hash: string | null } | null;
  /** what the node answered to this round's code_hash_check (a verified answer only), with the hash expected for its version; null when it did not answer */
  reported?: { code_hash: string; version: string; expected_hash: string | null } | null;
}

const codeHashMismatch = (version: string | null, codeHash: string | null, expected: string | null, source: string): AuditFinding => ({
  key: `code_hash:${version ?? ''}:${codeHash ?? ''}`,
  alertType: 'code_hash_mismatch',
  severity: 'critical',
  description: `${source} code hash for version ${version ?? '?'} is not the expected one`,
  evidence: { version, code_hash: codeHash, expected_hash: expected, source },
  fraudScoreDelta: CODE_HASH_MISMATCH_DELTA,
});

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
  if (r && r.code_hash_matches === false) findings.push(codeHashMismatch(r.version, r.code_hash, r.expected_hash, 'registered'));
  const reported = records.reported;
  if (reported && reported.expected_hash !== null && reported.expected_hash !== reported.code_hash) {
    const finding = codeHashMismatch(reported.version, reported.code_hash, reported.expected_hash, 'reported');
    if (!findings.some((f) => f.key === finding.key)) findings.push(finding);
  }
  return findings;
}
