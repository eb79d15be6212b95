/**
 * Achievements and challenge rewards (social-routes §15).
 *
 * Counting: each event that earns an achievement is one more of a metric for
 * the user who did it (CountAchievementProgress, on the user's
 * `userAchievements-<userId>` stream, with the event's global position, so a
 * redelivered or replayed event counts nothing more):
 * - PostPublished → post_published (the author); CommentPosted → comment_posted;
 * - a new vote (up or down, not a switch or taking one back) → vote_cast (the voter);
 * - RewardGranted of `upvote_received` → upvote_received: the wallet pays one
 *   per (target, voter), so taking an upvote back and giving it again counts once;
 * - UserFollowed → user_followed (the follower) and follower_gained (the followee);
 * - CommunityJoined → community_joined; CommunityCreated → community_created (the creator);
 * - AgentCreated → agent_created (its owner); TaskCompleted → task_completed (the assignee);
 * - RecipeShared → recipe_shared; RecipeForked → recipe_forked (who forked);
 * - RatingGiven → rating_given; ReferralActivated → referral_activated (the referrer);
 * - ProximityRevealed (matched) → proximity_matched (both); BoostPurchased → boost_purchased;
 * - DailyCheckedIn → daily_checkin, and the streak observed (streak_days);
 * - OnboardingCompleted → onboarding_completed.
 * Levels: a credit with XP (RewardGranted, DailyCheckedIn) → ObserveLevel, the
 * level of the wallet's XP as the wallet stream holds it.
 *
 * Paying: AchievementUnlocked → GrantReward of the achievement's rewards
 * (source `achievement` / its id), ChallengeRewardClaimed → GrantReward of the
 * challenge's (source `challenge` / its id), into the user's wallet, which
 * pays a source once.
 */
import { Injectable } from '@nestjs/common';
import type { ICommand } from '@nestjs/cqrs';
import type { Metric } from '../aggregates/gamification/achievements';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { ProcessManager } from '../infrastructure/sagas/process-manager';
import { GrantReward } from '../modules/content/content.commands';
import { CountAchievementProgress, ObserveAchievementStat, ObserveLevel } from '../modules/gamification/achievements.commands';
import { reactions } from './support/reactions';

type Source = Pick<RecordedEvent, 'metadata' | 'position'>;

const context = (event: Source) => ({ actor: 'system:achievements', correlationId: event.metadata.correlationId, causationId: event.metadata.eventId });

/** One more of `metric` by `userId`, from this event. */
const count = (event: Source, userId: string | null, metric: Metric): ICommand[] =>
  userId ? [new CountAchievementProgress({ userId, metric, sourcePosition: event.position }, context(event))] : [];

const level = (event: Source, userId: string): ICommand => new ObserveLevel({ userId }, context(event));

/** A vote where there was none: not a switch, not taking one back. */
const newVote = (d: { value: number; previous: number }): boolean => d.value !== 0 && d.previous === 0;

@Injectable()
export class AchievementsSaga implements ProcessManager {
  readonly name = 'achievements';
  private readonly reactions = reactions({
    PostPublished: (event) => count(event, event.data.author_id, 'post_published'),
    CommentPosted: (event) => count(event, event.data.author_id, 'comment_posted'),
    PostVoted: (event) => (newVote(event.data) ? count(event, event.data.voter_id, 'vote_cast') : null),
    CommentVoted: (event) => (newVote(event.data) ? count(event, event.data.voter_id, 'vote_cast') : null),
    UserFollowed: (event) => [...count(event, event.data.follower_id, 'user_followed'), ...count(event, event.data.followee_id, 'follower_gained')],
    CommunityJoined: (event) => count(event, event.data.user_id, 'community_joined'),
    CommunityCreated: (event) => count(event, event.data.creator_id, 'community_created'),
    AgentCreated: (event) => count(event, event.data.owner_id, 'agent_created'),
    TaskCompleted: (event) => count(event, event.data.assignee_id, 'task_completed'),
    RecipeShared: (event) => count(event, event.data.author_id, 'recipe_shared'),
    RecipeForked: (event) => count(event, event.data.forked_by, 'recipe_forked'),
    RatingGiven: (event) => count(event, event.data.rater_id, 'rating_given'),
    ReferralActivated: (event) => count(event, event.data.referrer_id, 'referral_activated'),
    ProximityRevealed: (event) =>
      event.data.status === 'matched' ? [...count(event, event.data.user_a_id, 'proximity_matched'), ...count(event, event.data.user_b_id, 'proximity_matched')] : null,
    BoostPurchased: (event) => count(event, event.data.user_id, 'boost_purchased'),
    OnboardingCompleted: (event) => count(event, event.data.user_id, 'onboarding_completed'),
    RewardGranted: (event) => [
      ...(event.data.action === 'upvote_received' ? count(event, event.data.user_id, 'upvote_received') : []),
      ...(event.data.xp > 0 ? [level(event, event.data.user_id)] : []),
    ],
    DailyCheckedIn: (event) => [
      ...count(event, event.data.user_id, 'daily_checkin'),
      new ObserveAchievementStat({ userId: event.data.user_id, stat: 'streak_days', value: event.data.streak_days }, context(event)),
      ...(event.data.xp_bonus > 0 ? [level(event, event.data.user_id)] : []),
    ],
    AchievementUnlocked: (event) =>
      new GrantReward(
        {
          userId: event.data.user_id,
          action: 'achievement',
          amounts: { pulse: event.data.reward_pulse, spark: event.data.reward_spark, signal: event.data.reward_signal, xp: event.data.reward_xp },
          sourceType: 'achievement',
          sourceId: event.data.achievement_id,
        },
        context(event),
      ),
    ChallengeRewardClaimed: (event) =>
      new GrantReward(
        {
          userId: event.data.user_id,
          action: 'challenge',
          amounts: { pulse: event.data.pulse, spark: event.data.spark, signal: event.data.signal, xp: event.data.xp },
          sourceType: 'challenge',
          sourceId: event.data.challenge_id,
        },
        context(event),
      ),
  });
  readonly eventTypes = this.reactions.eventTypes;

  react(event: RecordedEvent): ICommand[] {
    return this.reactions.react(event);
  }
}
