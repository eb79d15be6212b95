import { recordedEvent } from '../../test/support/saga-kit';
import { userAchievementsDecider, type UserAchievementsState } from '../aggregates/gamification/user-achievements';
import { GrantReward } from '../modules/content/content.commands';
import { CountAchievementProgress, ObserveAchievementStat, ObserveLevel } from '../modules/gamification/achievements.commands';
import { AchievementsSaga } from './achievements.saga';

const saga = new AchievementsSaga();
const react = (type: string, data: Record<string, unknown>, position = 7) => saga.react(recordedEvent(type, data, { position, eventId: 'e7', correlationId: 'c7' }));
const counted = (type: string, data: Record<string, unknown>) =>
  react(type, data).map((c) => (c instanceof CountAchievementProgress ? [c.payload.userId, c.payload.metric, c.payload.sourcePosition] : c.constructor.name));
const vote = { voter_id: 'cat', target_author_id: 'bob', outcome: 'voted', value: 1, previous: 0, upvotes: 1, downvotes: 0, score: 1, at: 't' };

describe('achievements saga', () => {
  it.each([
    ['PostPublished', { post_id: 'p1', author_id: 'bob' }, [['bob', 'post_published', 7]]],
    ['CommentPosted', { comment_id: 'c1', post_id: 'p1', author_id: 'bob' }, [['bob', 'comment_posted', 7]]],
    ['PostVoted', { ...vote, post_id: 'p1' }, [['cat', 'vote_cast', 7]]],
    ['CommentVoted', { ...vote, comment_id: 'c1', post_id: 'p1', value: -1 }, [['cat', 'vote_cast', 7]]],
    ['UserFollowed', { follower_id: 'ann', followee_id: 'bob', follower_username: 'ann', at: 't' }, [['ann', 'user_followed', 7], ['bob', 'follower_gained', 7]]],
    ['CommunityJoined', { community_id: 'k', user_id: 'ann', role: 'member', member_count: 2, at: 't' }, [['ann', 'community_joined', 7]]],
    ['AgentCreated', { agent_user_id: 'a1', owner_id: 'ann' }, [['ann', 'agent_created', 7]]],
    ['AgentCreated', { agent_user_id: 'a1', owner_id: null }, []],
    ['TaskCompleted', { task_id: 't1', assignee_id: null }, []],
    ['ProximityRevealed', { match_id: 'm', user_a_id: 'ann', user_b_id: 'bob', by: 'ann', status: 'matched', at: 't' }, [['ann', 'proximity_matched', 7], ['bob', 'proximity_matched', 7]]],
    ['ProximityRevealed', { match_id: 'm', user_a_id: 'ann', user_b_id: 'bob', by: 'ann', status: 'revealed_a', at: 't' }, []],
  ])('given %s, then the metrics counted are %j', (type, data, expected) => expect(counted(type, data as Record<string, unknown>)).toEqual(expected));

  it('given a vote switched or taken back, then no vote is counted', () => {
    expect(counted('PostVoted', { ...vote, post_id: 'p1', outcome: 'changed', value: -1, previous: 1 })).toEqual([]);
    expect(counted('PostVoted', { ...vote, post_id: 'p1', outcome: 'removed', value: 0, previous: 1 })).toEqual([]);
  });

  it('given an upvote reward with XP, then upvote_received is counted and the level observed; another reward with XP only observes the level', () => {
    const reward = { user_id: 'bob', action: 'upvote_received', pulse: 1, spark: 0, signal: 0, xp: 2, source_type: 'upvote_received', source_id: 's', granted_at: 't' };
    expect(counted('RewardGranted', reward)).toEqual([['bob', 'upvote_received', 7], 'ObserveLevel']);
    expect(counted('RewardGranted', { ...reward, action: 'create_post' })).toEqual(['ObserveLevel']);
    expect(react('RewardGranted', { ...reward, action: 'create_post' })[0]).toBeInstanceOf(ObserveLevel);
  });

  it('given a check-in, then it is counted, the streak observed and the level observed', () => {
    const [count, streak, level] = react('DailyCheckedIn', { user_id: 'ann', day: 'd', streak_days: 7, streak_best: 7, spark_bonus: 7, xp_bonus: 35, checked_in_at: 't' });
    expect(count).toBeInstanceOf(CountAchievementProgress);
    expect((streak as ObserveAchievementStat).payload).toEqual({ userId: 'ann', stat: 'streak_days', value: 7 });
    expect(level).toBeInstanceOf(ObserveLevel);
  });

  it('given an achievement unlocked, then its rewards are granted with the achievement as the source, caused by the event', () => {
    const [grant] = react('AchievementUnlocked', {
      user_id: 'ann',
      achievement_id: 'ach_first_post',
      slug: 'first_post',
      season_id: null,
      reward_pulse: 0,
      reward_spark: 5,
      reward_signal: 0,
      reward_xp: 10,
      unlocked_at: 't',
    }) as GrantReward[];
    expect(grant).toBeInstanceOf(GrantReward);
    expect({ ...grant.payload, ...grant.context }).toEqual({
      userId: 'ann',
      action: 'achievement',
      amounts: { pulse: 0, spark: 5, signal: 0, xp: 10 },
      sourceType: 'achievement',
      sourceId: 'ach_first_post',
      actor: 'system:achievements',
      correlationId: 'c7',
      causationId: 'e7',
    });
  });

  it('given a challenge reward claimed, then it is granted with the challenge as the source', () => {
    const [grant] = react('ChallengeRewardClaimed', { challenge_id: 'daily-2026-12-07', user_id: 'ann', pulse: 0, spark: 10, signal: 0, xp: 20, claimed_at: 't' }) as GrantReward[];
    expect(grant.payload).toMatchObject({ userId: 'ann', sourceType: 'challenge', sourceId: 'daily-2026-12-07', amounts: { spark: 10, xp: 20 } });
  });

  it('given the same post delivered twice, then the user’s stream counts it once and unlocks first_post once', () => {
    const now = new Date('2026-12-07T00:00:00Z');
    let state: UserAchievementsState = userAchievementsDecider.initialState;
    const recorded = [];
    for (const position of [7, 7]) {
      const [command] = react('PostPublished', { post_id: 'p1', author_id: 'bob' }, position) as CountAchievementProgress[];
      const events = userAchievementsDecider.decide({ kind: 'count', ...command.payload }, state, now);
      state = events.reduce(userAchievementsDecider.evolve, state);
      recorded.push(...events);
    }
    expect(recorded.map((e) => e.type)).toEqual(['AchievementProgressRecorded', 'AchievementUnlocked']);
  });
});
