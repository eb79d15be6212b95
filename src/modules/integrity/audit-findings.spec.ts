import { auditFindings, CODE_HASH_MISMATCH_DELTA, FAILED_CHALLENGE_DELTA } from './audit-findings';

const NOW = new Date('2026-12-07T12:00:00.000Z');
const challenge = (id: string, status: string, created_at = '2026-12-07T11:59:00.000Z') => ({ id, challenge_type: 'stats_probe', status, result_details: status === 'failed' ? 'nonce mismatch' : null, created_at });

describe('audit findings', () => {
  it('given a failed and a passed challenge, then only the failure is a finding, keyed by its id', () => {
    const findings = auditFindings({ challenges: [challenge('c1', 'failed'), challenge('c2', 'passed')], registration: null }, NOW);
    expect(findings.map((f) => [f.key, f.fraudScoreDelta])).toEqual([['challenge:c1', FAILED_CHALLENGE_DELTA]]);
  });

  it('given a challenge pending for a minute, then it is no finding yet; pending for an hour, it is', () => {
    expect(auditFindings({ challenges: [challenge('c1', 'pending')], registration: null }, NOW)).toEqual([]);
    expect(auditFindings({ challenges: [challenge('c1', 'pending', '2026-12-07T11:00:00.000Z')], registration: null }, NOW)[0].alertType).toBe('challenge_unanswered');
  });

  it('given a registration whose hash does not match, then a critical finding', () => {
    const [finding] = auditFindings({ challenges: [], registration: { code_hash: 'b', version: '1.0.0', code_hash_matches: false, expected_hash: 'a' } }, NOW);
    expect(finding).toMatchObject({ alertType: 'code_hash_mismatch', severity: 'critical', fraudScoreDelta: CODE_HASH_MISMATCH_DELTA });
  });

  it('given the node reported a code hash other than the one expected for its version, then a critical finding', () => {
    const [finding] = auditFindings({ challenges: [], registration: null, reported: { code_hash: 'b', version: '1.0.0', expected_hash: 'a' } }, NOW);
    expect(finding).toMatchObject({ alertType: 'code_hash_mismatch', severity: 'critical', evidence: { source: 'reported' } });
  });

  it('given the same wrong hash registered and reported, then one finding', () => {
    const records = { challenges: [], registration: { code_hash: 'b', version: '1.0.0', code_hash_matches: false, expected_hash: 'a' }, reported: { code_hash: 'b', version: '1.0.0', expected_hash: 'a' } };
    expect(auditFindings(records, NOW)).toHaveLength(1);
  });

  it('given the node reported the expected hash, or one for a version with no expected hash, then no finding', () => {
    expect(auditFindings({ challenges: [], registration: null, reported: { code_hash: 'a', version: '1.0.0', expected_hash: 'a' } }, NOW)).toEqual([]);
    expect(auditFindings({ challenges: [], registration: null, reported: { code_hash: 'a', version: '9.9.9', expected_hash: null } }, NOW)).toEqual([]);
  });
});
