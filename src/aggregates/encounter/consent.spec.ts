import { deciderKit } from '../../../test/support/decider-kit';
import { activeConsents, allowsCloudDrafting, consentDecider, type ConsentCommand } from './consent';
import type { ConsentEvent } from './encounter.events';

const now = new Date('2026-06-01T10:00:00.000Z');
const earlier = '2026-05-01T10:00:00.000Z';
const { given } = deciderKit(consentDecider, now);
const command = (kind: ConsentCommand['kind'], consentType = 'cloud_capability', scope = '*'): ConsentCommand => ({
  kind,
  userId: 'u1',
  consentType,
  scope,
});
const granted = (consentType = 'cloud_capability', scope = '*', at = earlier): ConsentEvent => ({
  type: 'ConsentGranted',
  data: { user_id: 'u1', consent_type: consentType, scope, granted_at: at },
});
const revoked = (consentType = 'cloud_capability', scope = '*', at = earlier): ConsentEvent => ({
  type: 'ConsentRevoked',
  data: { user_id: 'u1', consent_type: consentType, scope, revoked_at: at },
});
const draftingAllowedAfter = (...events: ConsentEvent[]) => allowsCloudDrafting(activeConsents(given(...events).state()));

describe('consent', () => {
  describe('decider', () => {
    it('given no consent, when granting, then ConsentGranted is recorded', () =>
      given().when(command('grant')).then(granted('cloud_capability', '*', now.toISOString())));

    it('given an active consent, when granting it again, then nothing is recorded', () =>
      given(granted()).when(command('grant')).thenNothing());

    it('given an active consent of another scope, when granting, then it is recorded', () =>
      given(granted())
        .when(command('grant', 'cloud_capability', 'encounter_icebreaker'))
        .then(granted('cloud_capability', 'encounter_icebreaker', now.toISOString())));

    it('given an active consent, when revoking, then ConsentRevoked is recorded', () =>
      given(granted()).when(command('revoke')).then(revoked('cloud_capability', '*', now.toISOString())));

    it('given no active consent, when revoking, then nothing is recorded', () => given().when(command('revoke')).thenNothing());

    it('given a revoked consent, when revoking again, then nothing is recorded', () =>
      given(granted(), revoked()).when(command('revoke')).thenNothing());

    it('given a revoked consent, when granting again, then it is recorded', () =>
      given(granted(), revoked()).when(command('grant')).then(granted('cloud_capability', '*', now.toISOString())));
  });

  describe('allowsCloudDrafting', () => {
    it('given no consent, then drafting is not allowed', () => {
      expect(draftingAllowedAfter()).toBe(false);
    });

    it.each([['*'], ['encounter_icebreaker']])('given an active cloud_capability consent with scope %s, then drafting is allowed', (scope) => {
      expect(draftingAllowedAfter(granted('cloud_capability', scope))).toBe(true);
    });

    it('given a cloud_capability consent of another scope, then drafting is not allowed', () => {
      expect(draftingAllowedAfter(granted('cloud_capability', 'chat'))).toBe(false);
    });

    it('given another consent type with scope *, then drafting is not allowed', () => {
      expect(draftingAllowedAfter(granted('analytics', '*'))).toBe(false);
    });

    it('given a revoked drafting consent, then drafting is not allowed', () => {
      expect(draftingAllowedAfter(granted(), revoked())).toBe(false);
    });
  });

  describe('activeConsents', () => {
    it('given several grants and a revoke, then the active ones are listed by type, then scope', () => {
      const state = given(
        granted('cloud_capability', 'encounter_icebreaker'),
        granted('analytics', '*'),
        granted('cloud_capability', '*'),
        granted('b', 'x'),
        revoked('b', 'x'),
      ).state();
      expect(activeConsents(state)).toEqual([
        { consent_type: 'analytics', scope: '*', granted_at: earlier },
        { consent_type: 'cloud_capability', scope: '*', granted_at: earlier },
        { consent_type: 'cloud_capability', scope: 'encounter_icebreaker', granted_at: earlier },
      ]);
    });
  });
});
