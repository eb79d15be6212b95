import { deciderKit } from '../../../test/support/decider-kit';
import { ONBOARDING_STEPS, onboardingDecider, UNKNOWN_STEP, type OnboardingEvent } from './onboarding';

const now = new Date('2026-11-24T10:00:00.000Z');
const { given } = deciderKit(onboardingDecider, now);
const at = now.toISOString();

const completed = (key: (typeof ONBOARDING_STEPS)[number]['key']): OnboardingEvent => {
  const step = ONBOARDING_STEPS.find((s) => s.key === key)!;
  return { type: 'OnboardingStepCompleted', data: { user_id: 'ann', step: key, reward_type: step.reward_type, reward_amount: step.reward_amount, completed_at: '2026-11-23T09:00:00.000Z' } };
};
const allBut = (last: string) => ONBOARDING_STEPS.filter((s) => s.key !== last).map((s) => completed(s.key));

describe('onboarding', () => {
  it('given nothing done, when completing welcome, then the step is recorded with its reward', () =>
    given()
      .when({ kind: 'completeStep', userId: 'ann', step: 'welcome' })
      .then({ type: 'OnboardingStepCompleted', data: { user_id: 'ann', step: 'welcome', reward_type: 'xp', reward_amount: 10, completed_at: at } }));

  it('given welcome done, when completing it again, then nothing is recorded', () =>
    given(completed('welcome')).when({ kind: 'completeStep', userId: 'ann', step: 'welcome' }).then());

  it('when completing an unknown step, then it is refused', () =>
    given().when({ kind: 'completeStep', userId: 'ann', step: 'fly' }).thenRefused('invalid', UNKNOWN_STEP));

  it('given seven steps done, when completing the eighth, then OnboardingCompleted follows with the 50 spark bonus', () =>
    given(...allBut('invite_friends'))
      .when({ kind: 'completeStep', userId: 'ann', step: 'invite_friends' })
      .then(
        { type: 'OnboardingStepCompleted', data: { user_id: 'ann', step: 'invite_friends', reward_type: 'spark', reward_amount: 10, completed_at: at } },
        { type: 'OnboardingCompleted', data: { user_id: 'ann', bonus_type: 'spark', bonus_amount: 50, completed_at: at } },
      ));

  it('given everything done, when completing a step again, then nothing more is recorded (the bonus is once)', () =>
    given(...ONBOARDING_STEPS.map((s) => completed(s.key)), { type: 'OnboardingCompleted', data: { user_id: 'ann', bonus_type: 'spark', bonus_amount: 50, completed_at: at } })
      .when({ kind: 'completeStep', userId: 'ann', step: 'first_post' })
      .then());

  it('when dismissing, then OnboardingDismissed is recorded once', () => {
    given().when({ kind: 'dismiss', userId: 'ann' }).then({ type: 'OnboardingDismissed', data: { user_id: 'ann', dismissed_at: at } });
    given({ type: 'OnboardingDismissed', data: { user_id: 'ann', dismissed_at: at } }).when({ kind: 'dismiss', userId: 'ann' }).then();
  });
});
