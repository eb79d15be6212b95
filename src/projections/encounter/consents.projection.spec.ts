import { applyAll, recorded } from '../../../test/support/projection-kit';
import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { activeConsentsOf, consentId, ENCOUNTER_CONSENTS, type EncounterConsentDoc, encounterConsentsProjection as projection } from './consents.projection';

const granted = (user: string, consentType: string, scope: string, at = '2026-06-01T10:00:00.000Z') =>
  recorded('ConsentGranted', { user_id: user, consent_type: consentType, scope, granted_at: at }, { at, streamId: `consent-${user}` });
const revoked = (user: string, consentType: string, scope: string, at = '2026-06-01T11:00:00.000Z') =>
  recorded('ConsentRevoked', { user_id: user, consent_type: consentType, scope, revoked_at: at }, { at, streamId: `consent-${user}` });

async function activeOf(store: EmbeddedReadStore, user: string): Promise<Pick<EncounterConsentDoc, 'consent_type' | 'scope' | 'granted_at'>[]> {
  const { filter, options } = activeConsentsOf(user);
  const docs = await store.collection<EncounterConsentDoc>(ENCOUNTER_CONSENTS).find(filter, options);
  return docs.map(({ consent_type, scope, granted_at }) => ({ consent_type, scope, granted_at }));
}

describe('encounterConsents projection', () => {
  it('given grants of several types and scopes, then the active ones list by type, then scope, per user', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(
      projection,
      store,
      granted('u1', 'cloud_capability', 'encounter_icebreaker'),
      granted('u1', 'analytics', '*'),
      granted('u1', 'cloud_capability', '*'),
      granted('u2', 'analytics', '*'),
    );
    expect(await activeOf(store, 'u1')).toEqual([
      { consent_type: 'analytics', scope: '*', granted_at: '2026-06-01T10:00:00.000Z' },
      { consent_type: 'cloud_capability', scope: '*', granted_at: '2026-06-01T10:00:00.000Z' },
      { consent_type: 'cloud_capability', scope: 'encounter_icebreaker', granted_at: '2026-06-01T10:00:00.000Z' },
    ]);
  });

  it('given a grant then its revocation, then it is no longer active', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, granted('u1', 'cloud_capability', '*'), revoked('u1', 'cloud_capability', '*'));
    expect(await activeOf(store, 'u1')).toEqual([]);
    expect(await store.collection(ENCOUNTER_CONSENTS).findOne({ _id: consentId('u1', 'cloud_capability', '*') })).toMatchObject({
      active: false,
      granted_at: '2026-06-01T10:00:00.000Z',
    });
  });

  it('given a revoked consent granted again, then it is active with the new grant time', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(
      projection,
      store,
      granted('u1', 'analytics', '*'),
      revoked('u1', 'analytics', '*'),
      granted('u1', 'analytics', '*', '2026-06-02T10:00:00.000Z'),
    );
    expect(await activeOf(store, 'u1')).toEqual([{ consent_type: 'analytics', scope: '*', granted_at: '2026-06-02T10:00:00.000Z' }]);
  });

  it('given a revocation replayed after a newer grant, then the grant stands', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const revocation = revoked('u1', 'analytics', '*');
    await applyAll(projection, store, granted('u1', 'analytics', '*'), revocation, granted('u1', 'analytics', '*', '2026-06-02T10:00:00.000Z'));
    await applyAll(projection, store, revocation);
    expect(await activeOf(store, 'u1')).toHaveLength(1);
  });
});
