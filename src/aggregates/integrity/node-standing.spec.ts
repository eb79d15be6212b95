import { deciderKit } from '../../../test/support/decider-kit';
import { ALERT_NOT_FOUND, type AuditFinding, FRAUD_SCORE_BANNER, nodeStandingDecider, type NodeStandingCommand } from './node-standing';

const NOW = new Date('2026-11-23T10:00:00.000Z');
const AT = NOW.toISOString();
const { given, history } = deciderKit(nodeStandingDecider, NOW);

const ban: NodeStandingCommand = { kind: 'ban', nodeId: 'node-b', reason: 'forged impressions', by: 'admin-1' };
const unban: NodeStandingCommand = { kind: 'unban', nodeId: 'node-b', reason: 'cleared', by: 'admin-1' };

describe('a node\'s standing', () => {
  it('given a node in good standing, when banned, then it is banned with a fraud score of 100', () =>
    given()
      .when(ban)
      .then({ type: 'NodeBanned', data: { node_id: 'node-b', reason: 'forged impressions', banned_by: 'admin-1', fraud_score: 100, banned_at: AT } }));

  it('given a banned node, when banned again, then nothing is recorded', () => given(...history(ban)).when(ban).thenNothing());

  it('given a banned node, when the ban is lifted, then its score is back to 0', () =>
    given(...history(ban))
      .when(unban)
      .then({ type: 'NodeUnbanned', data: { node_id: 'node-b', reason: 'cleared', unbanned_by: 'admin-1', fraud_score: 0, unbanned_at: AT } }));

  it('given a node that is not banned, when a ban is lifted, then nothing is recorded', () => given().when(unban).thenNothing());
});

describe('a node\'s fraud score', () => {
  const finding = (key: string, delta: number): AuditFinding => ({
    key,
    alertType: 'challenge_failed',
    severity: 'high',
    description: `challenge ${key} failed`,
    evidence: { challenge_id: key },
    fraudScoreDelta: delta,
  });
  const audit = (findings: AuditFinding[] = [], alertIds = findings.map((f) => `alert-${f.key}`)): NodeStandingCommand => ({ kind: 'audit', nodeId: 'node-b', by: 'admin-1', findings, alertIds });
  const raised = (key: string, delta: number, score: number) => ({
    type: 'IntegrityAlertRaised' as const,
    data: {
      alert_id: `alert-${key}`,
      node_id: 'node-b',
      alert_type: 'challenge_failed',
      severity: 'high' as const,
      description: `challenge ${key} failed`,
      evidence: { challenge_id: key },
      finding_key: key,
      fraud_score_delta: delta,
      fraud_score: score,
      raised_at: AT,
    },
  });

  it('given a clean node, when audited without findings, then a round is recorded and the score stays 0', () =>
    given()
      .when(audit())
      .then({ type: 'NodeAudited', data: { node_id: 'node-b', audited_by: 'admin-1', findings: 0, fraud_score_before: 0, decay: 0, fraud_score: 0, audited_at: AT } }));

  it('given a score of 25, when audited without findings, then it decays by 2 to 23', () =>
    expect(given(...history(audit([finding('c1', 25)]))).when(audit()).state().fraudScore).toBe(23));

  it('given a score of 1, when audited, then it decays to 0 and no lower', () =>
    expect(given(...history(audit([finding('c1', 1)]))).when(audit()).state().fraudScore).toBe(0));

  it('given a finding, when audited, then the round decays first and the alert adds its delta', () =>
    given(...history(audit([finding('c1', 30)])))
      .when(audit([finding('c2', 40)]))
      .then(
        { type: 'NodeAudited', data: { node_id: 'node-b', audited_by: 'admin-1', findings: 1, fraud_score_before: 30, decay: 2, fraud_score: 28, audited_at: AT } },
        raised('c2', 40, 68),
      ));

  it('given a finding already counted, when audited again, then it raises no second alert', () => {
    const events = given(...history(audit([finding('c1', 30)]))).when(audit([finding('c1', 30)])).events();
    expect(events.map((e) => e.type)).toEqual(['NodeAudited']);
  });

  it('given findings that bring the score to 80, when audited, then the node is banned in the same round', () => {
    const events = given(...history(audit([finding('c1', 50)]))).when(audit([finding('c2', 32)])).events();
    expect(events.map((e) => e.type)).toEqual(['NodeAudited', 'IntegrityAlertRaised', 'NodeBanned']);
    expect(events[2].data).toMatchObject({ banned_by: FRAUD_SCORE_BANNER, fraud_score: 80 });
  });

  it('given findings summing to 79, when audited, then the node is not banned', () =>
    expect(given().when(audit([finding('c1', 79)])).state()).toMatchObject({ banned: false, fraudScore: 79 }));

  it('given findings past 100, when audited, then the score is capped at 100', () =>
    expect(given().when(audit([finding('c1', 90), finding('c2', 90)])).state().fraudScore).toBe(100));

  it('given a raised alert, when an admin marks it investigating, then the review is recorded', () =>
    given(...history(audit([finding('c1', 10)])))
      .when({ kind: 'review', nodeId: 'node-b', alertId: 'alert-c1', status: 'investigating', by: 'admin-2' })
      .then({ type: 'IntegrityAlertReviewed', data: { alert_id: 'alert-c1', node_id: 'node-b', status: 'investigating', reviewed_by: 'admin-2', reviewed_at: AT } }));

  it('given no such alert, when reviewed, then it is refused as not found', () =>
    given().when({ kind: 'review', nodeId: 'node-b', alertId: 'nope', status: 'investigating', by: 'admin-2' }).thenRefused('not_found', ALERT_NOT_FOUND));
});
