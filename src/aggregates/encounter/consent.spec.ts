import { activeConsents, allowsCloudDrafting, consentDecider, type ConsentCommand, type ConsentState } from './consent';

const hasCloudDraftingConsent = (state: ConsentState) => allowsCloudDrafting(activeConsents(state));
import type { ConsentEvent } from './encounter.events';

const now = new Date('2026-06-01T10:00:00.000Z');
const earlier = '2026-05-01T10:00:00.000Z';
const given = (...events: ConsentEvent[]) => events.reduce(consentDecider.evolve, consentDecider.initialState);
const command = (kind: ConsentCommand['kind'], consentType = 'cloud_capability', scope = '*'): ConsentCommand => ({
  kind,
  userId: 'u1',
  consentType,
  scope,
});
const granted = (consentType = 'cloud_capability', scope = '*'): ConsentEvent => ({
  type: 'ConsentGranted',
  data: { user_id: 'u1', consent_type: consentType, scope, granted_at: earlier },
});
const revoked = (consentType = 'cloud_capability', scope = '*'): ConsentEvent => ({
  type: 'ConsentRevoked',
  data: { user_id: 'u1', consent_type: consentType, scope, revoked_at: earlier },
});

describe('consent', () => {
  describe('decider', () => {
    it('given no consent, when granting, then ConsentGranted is recorded', () => {
      expect(consentDecider.decide(command('grant'), given(), now)).toEqual([
        { type: 'ConsentGranted', data: { user_id: 'u1', consent_type: 'cloud_capability', scope: '*', granted_at: now.toISOString() } },
      ]);
    });

    it('given an active consent, when granting it again, then nothing is recorded', () => {
      expect(consentDecider.decide(command('grant'), given(granted()), now)).toEqual([]);
    });

    it('given an active consent of another scope, when granting, then it is recorded', () => {
      expect(consentDecider.decide(command('grant', 'cloud_capability', 'encounter_icebreaker'), given(granted()), now)).toHaveLength(1);
    });

    it('given an active consent, when revoking, then ConsentRevoked is recorded', () => {
      expect(consentDecider.decide(command('revoke'), given(granted()), now)).toEqual([
        { type: 'ConsentRevoked', data: { user_id: 'u1', consent_type: 'cloud_capability', scope: '*', revoked_at: now.toISOString() } },
      ]);
    });

    it('given no active consent, when revoking, then nothing is recorded', () => {
      expect(consentDecider.decide(command('revoke'), given(), now)).toEqual([]);
    });

    it('given a revoked consent, when revoking again, then nothing is recorded', () => {
      expect(consentDecider.decide(command('revoke'), given(granted(), revoked()), now)).toEqual([]);
    });

    it('given a revoked consent, when granting again, then it is recorded', () => {
      expect(consentDecider.decide(command('grant'), given(granted(), revoked()), now)).toHaveLength(1);
    });
  });

  describe('hasCloudDraftingConsent', () => {
    it('given no consent, then drafting is not allowed', () => {
      expect(hasCloudDraftingConsent(given())).toBe(false);
    });

    it.each([['*'], ['encounter_icebreaker']])('given an active cloud_capability consent with scope %s, then drafting is allowed', (scope) => {
      expect(hasCloudDraftingConsent(given(granted('cloud_capability', scope)))).toBe(true);
    });

    it('given a cloud_capability consent of another scope, then drafting is not allowed', () => {
      expect(hasCloudDraftingConsent(given(granted('cloud_capability', 'chat')))).toBe(false);
    });

    it('given another consent type with scope *, then drafting is not allowed', () => {
      expect(hasCloudDraftingConsent(given(granted('analytics', '*')))).toBe(false);
    });

    it('given a revoked drafting consent, then drafting is not allowed', () => {
      expect(hasCloudDraftingConsent(given(granted(), revoked()))).toBe(false);
    });
  });

  describe('activeConsents', () => {
    it('given several grants and a revoke, then the active ones are listed by type, then scope', () => {
      const state = given(granted('cloud_capability', 'encounter_icebreaker'), granted('analytics', '*'), granted('cloud_capability', '*'), granted('b', 'x'), revoked('b', 'x'));
      expect(activeConsents(state)).toEqual([
        { consent_type: 'analytics', scope: '*', granted_at: earlier },
        { consent_type: 'cloud_capability', scope: '*', granted_at: earlier },
        { consent_type: 'cloud_capability', scope: 'encounter_icebreaker', granted_at: earlier },
      ]);
    });
  });
});
