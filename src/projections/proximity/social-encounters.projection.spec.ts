import { applyAll, recorded } from '../../../test/support/projection-kit';
import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { SOCIAL_ENCOUNTERS, socialEncountersProjection } from './social-encounters.projection';

const at = '2026-11-23T10:00:00.000Z';
const row = (count: number) =>
  recorded('SocialEncounterRecorded', {
    encounter_id: 'enc1',
    user_a_id: 'ann',
    user_b_id: 'bob',
    context_type: 'post',
    context_id: 'p1',
    location_label: null,
    encounter_count: count,
    bond_level: count >= 2 ? 1 : 0,
    first_at: at,
    latest_at: at,
    source: `comment:${count}`,
  });

describe('social_encounters read model', () => {
  let store: EmbeddedReadStore;
  beforeEach(() => {
    store = new EmbeddedReadStore({ file: null });
  });
  afterEach(() => store.close());

  const doc = () => store.collection(SOCIAL_ENCOUNTERS).findOne({ _id: 'enc1' });

  it('given a record, then one row with the pair, count and bond, no acknowledgement yet, without the source', async () => {
    await applyAll(socialEncountersProjection, store, row(1));
    const stored = await doc();
    expect(stored).toMatchObject({ user_a_id: 'ann', user_b_id: 'bob', encounter_count: 1, bond_level: 0 });
    expect(stored?.is_mutual_aware).toBeUndefined();
    expect(stored).not.toHaveProperty('source');
  });

  it('given an acknowledged row, when another encounter is recorded, then it stays acknowledged and counts 2', async () => {
    const first = row(1);
    const acknowledged = recorded('SocialEncounterAcknowledged', { encounter_id: 'enc1', user_a_id: 'ann', user_b_id: 'bob', by: 'bob', at });
    await applyAll(socialEncountersProjection, store, first, acknowledged, row(2));
    expect(await doc()).toMatchObject({ encounter_count: 2, bond_level: 1, is_mutual_aware: true });
  });
});
