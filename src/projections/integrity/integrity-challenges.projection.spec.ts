import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { INTEGRITY_CHALLENGES, type IntegrityChallengeDoc, integrityChallengesProjection as projection } from './integrity-challenges.projection';

const streamId = 'integrityChallenge-c1';
const issued = recorded(
  'IntegrityChallengeIssued',
  { challenge_id: 'c1', challenger_node_id: 'node-a', target_node_id: 'node-b', challenge_type: 'stats_probe', challenge_nonce: 'n-1', issued_by: 'admin-1', issued_at: '2026-11-23T10:00:00.000Z' },
  { streamId },
);
const evaluated = recorded(
  'IntegrityChallengeEvaluated',
  { challenge_id: 'c1', responding_node_id: 'node-b', passed: false, details: 'nonce mismatch', response: { nonce: 'x' }, evaluated_at: '2026-11-23T10:00:05.000Z' },
  { streamId },
);
const doc = (store: EmbeddedReadStore) => store.collection<IntegrityChallengeDoc>(INTEGRITY_CHALLENGES).findOne({ _id: 'c1' });

describe('integrityChallenges projection', () => {
  it('given an issued challenge, then its record is pending without a result', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, issued);
    expect(await doc(store)).toMatchObject({ target_node_id: 'node-b', challenge_type: 'stats_probe', challenge_nonce: 'n-1', status: 'pending', result_details: null, created_at: '2026-11-23T10:00:00.000Z' });
  });

  it('given a failed evaluation, applied twice, then the record says failed and why, once', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, issued, evaluated, evaluated);
    expect(await doc(store)).toMatchObject({ status: 'failed', result_details: 'nonce mismatch', evaluated_at: '2026-11-23T10:00:05.000Z', responded_at: '2026-11-23T10:00:05.000Z' });
  });
});
