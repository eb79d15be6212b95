import { walletDecider, type WalletState } from '../aggregates/contest/wallet';
import { recorded } from '../../test/support/projection-kit';
import type { GrantReward } from '../modules/content/content.commands';
import type { CompleteOnboardingStep } from '../modules/gamification/gamification.commands';
import { OnboardingSaga } from './onboarding.saga';

const saga = new OnboardingSaga();
const now = new Date('2026-11-24T10:00:00Z');

/** Pays the saga's commands into one wallet with the real decider. */
function pay(commands: GrantReward[]): WalletState {
  let state = walletDecider.initialState;
  for (const c of commands) state = walletDecider.decide({ kind: 'reward', ...c.payload }, state, now).reduce(walletDecider.evolve, state);
  return state;
}

const stepDone = recorded('OnboardingStepCompleted', { user_id: 'ann', step: 'first_post', reward_type: 'spark', reward_amount: 10, completed_at: 'x' });
const allDone = recorded('OnboardingCompleted', { user_id: 'ann', bonus_type: 'spark', bonus_amount: 50, completed_at: 'x' });

describe('onboarding saga', () => {
  it("given a completed step, then the user gets the step's reward, source the user's step", () => {
    const [command] = saga.react(stepDone) as GrantReward[];
    expect(command.payload).toMatchObject({ userId: 'ann', amounts: { spark: 10 }, sourceType: 'onboarding_step', sourceId: 'ann:first_post' });
  });

  it('given onboarding completed, then the user gets 50 spark, source the user', () => {
    const [command] = saga.react(allDone) as GrantReward[];
    expect(command.payload).toMatchObject({ userId: 'ann', amounts: { spark: 50 }, sourceType: 'onboarding_complete', sourceId: 'ann' });
  });

  it('given the events twice (a redelivery), then each is paid once', () => {
    const commands = [stepDone, allDone, stepDone, allDone].flatMap((event) => saga.react(event)) as GrantReward[];
    expect(pay(commands).reputation?.spark).toBe(60);
  });

  const stepOf = (event: Parameters<OnboardingSaga['react']>[0]) => (saga.react(event) as CompleteOnboardingStep[]).map((c) => c.payload);

  it('given a follow, then the follower completes first_follow', () =>
    expect(stepOf(recorded('UserFollowed', { follower_id: 'ann', followee_id: 'bob', follower_username: 'ann', at: 'x' }))).toEqual([{ userId: 'ann', step: 'first_follow' }]));

  it('given a community joined, then the member completes join_community', () =>
    expect(stepOf(recorded('CommunityJoined', { community_id: 'c1', user_id: 'ann', role: 'member', member_count: 2, at: 'x' }))).toEqual([
      { userId: 'ann', step: 'join_community' },
    ]));

  it('given a vote cast, then the voter completes first_vote; a vote taken back completes nothing', () => {
    const vote = (value: 1 | -1 | 0) =>
      recorded('PostVoted', { post_id: 'p1', voter_id: 'ann', target_author_id: 'bob', outcome: 'voted', value, previous: 0, upvotes: 0, downvotes: 0, score: 0, at: 'x' });
    expect(stepOf(vote(-1))).toEqual([{ userId: 'ann', step: 'first_vote' }]);
    expect(stepOf(vote(0))).toEqual([]);
  });
});
