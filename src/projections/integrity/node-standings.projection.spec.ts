import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { NODE_STANDINGS, type NodeStandingDoc, nodeStandingsProjection as projection } from './node-standings.projection';

const streamId = 'nodeStanding-node-b';
const banned = recorded('NodeBanned', { node_id: 'node-b', reason: 'forged', banned_by: 'admin-1', fraud_score: 100, banned_at: '2026-11-23T10:00:00.000Z' }, { streamId });
const unbanned = recorded('NodeUnbanned', { node_id: 'node-b', reason: 'cleared', unbanned_by: 'admin-2', fraud_score: 0, unbanned_at: '2026-11-23T11:00:00.000Z' }, { streamId });
const doc = (store: EmbeddedReadStore) => store.collection<NodeStandingDoc>(NODE_STANDINGS).findOne({ _id: 'node-b' });

describe('nodeStandings projection', () => {
  it('given a ban, then the node is banned with its score and reason', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, banned);
    expect(await doc(store)).toMatchObject({ banned: true, fraud_score: 100, reason: 'forged', changed_by: 'admin-1' });
  });

  it('given a ban lifted, replayed, then the node is in good standing', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, banned, unbanned, banned, unbanned);
    expect(await doc(store)).toMatchObject({ banned: false, fraud_score: 0, reason: 'cleared', changed_at: '2026-11-23T11:00:00.000Z' });
  });
});
