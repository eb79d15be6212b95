import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { INTEGRITY_ALERTS, type IntegrityAlertDoc, integrityAlertsProjection as projection } from './integrity-alerts.projection';

const streamId = 'nodeStanding-node-b';
const raised = recorded(
  'IntegrityAlertRaised',
  {
    alert_id: 'a1',
    node_id: 'node-b',
    alert_type: 'challenge_failed',
    severity: 'high',
    description: 'failed',
    evidence: { challenge_id: 'c1' },
    finding_key: 'challenge:c1',
    fraud_score_delta: 25,
    fraud_score: 25,
    raised_at: '2026-12-07T12:00:00.000Z',
  },
  { streamId },
);
const reviewed = recorded('IntegrityAlertReviewed', { alert_id: 'a1', node_id: 'node-b', status: 'investigating', reviewed_by: 'admin-1', reviewed_at: '2026-12-07T12:10:00.000Z' }, { streamId });

describe('integrityAlerts projection', () => {
  it('given a raised alert reviewed, replayed, then the record is investigating, reviewed by the admin', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, raised, reviewed, raised, reviewed);
    expect(await store.collection<IntegrityAlertDoc>(INTEGRITY_ALERTS).findOne({ _id: 'a1' })).toMatchObject({
      node_id: 'node-b',
      fraud_score_delta: 25,
      status: 'investigating',
      reviewed_by: 'admin-1',
      created_at: '2026-12-07T12:00:00.000Z',
    });
  });
});
