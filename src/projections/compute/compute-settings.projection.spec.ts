import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { COMPUTE_SETTINGS, computeSettingsProjection as projection } from './compute-settings.projection';

describe('computeSettings projection', () => {
  it('given policy and peer changes and a join, then each change lands under its store and the join is flagged', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(
      projection,
      store,
      recorded('NodeComputeConfigUpdated', { node_id: 'n1', node_tier: 'flat', changes: { auto_settle: false }, updated_at: 't' }),
      recorded('PeerNodeRecordUpdated', {
        node_id: 'n1',
        node_tier: 'flat',
        changes: { electricity_rate_kwh: 0.2 },
        record: { electricity_rate_kwh: 0.2 },
        updated_at: 't',
      }),
      recorded('ComputeProviderJoined', { node_id: 'n1', node_tier: 'flat', record: { electricity_rate_kwh: 0.2 }, joined_at: 'tj' }),
    );
    expect(await store.collection(COMPUTE_SETTINGS).findOne({ _id: 'n1' })).toMatchObject({
      node_tier: 'flat',
      policy: { auto_settle: false },
      peer: { electricity_rate_kwh: 0.2 },
      joined: true,
      joined_at: 'tj',
      updated_at: 't',
    });
  });
});
