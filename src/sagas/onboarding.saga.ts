/**
 * Onboarding rewards (social-routes §15): each completed step pays its reward
 * (source `onboarding_step` / `<user>:<step>`), finishing them all pays the
 * 50 spark bonus (source `onboarding_complete` / `<user>`), both into the
 * user's wallet through its once-per-source credit (GrantReward,
 * src/aggregates/contest/wallet.ts). The onboarding stream records
 * `OnboardingCompleted` once; the wallet's source check makes a redelivered
 * or replayed event pay nothing more.
 *
 * It also completes the steps a user does elsewhere, as a user expects: a
 * follow → first_follow, joining a community → join_community, a vote (up or
 * down, not taking one back) → first_vote, a comment → first_comment, a post
 * → first_post. A step already done records nothing (the onboarding decider),
 * so every later follow or post is a no-op there.
 */
import { Injectable } from '@nestjs/common';
import type { ICommand } from '@nestjs/cqrs';
import type { StepKey } from '../aggregates/gamification/onboarding';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { ProcessManager } from '../infrastructure/sagas/process-manager';
import { GrantReward } from '../modules/content/content.commands';
import { CompleteOnboardingStep } from '../modules/gamification/gamification.commands';
import { reactions } from './support/reactions';

const context = (event: Pick<RecordedEvent, 'metadata'>) => ({ actor: 'system:onboarding', correlationId: event.metadata.correlationId, causationId: event.metadata.eventId });

/** The step `userId` did by this event. */
const did = (event: Pick<RecordedEvent, 'metadata'>, userId: string, step: StepKey): CompleteOnboardingStep => new CompleteOnboardingStep({ userId, step }, context(event));

@Injectable()
export class OnboardingSaga implements ProcessManager {
  readonly name = 'onboarding';
  private readonly reactions = reactions({
    OnboardingStepCompleted: (event) =>
      new GrantReward(
        {
          userId: event.data.user_id,
          action: 'onboarding_step',
          amounts: { [event.data.reward_type]: event.data.reward_amount },
          sourceType: 'onboarding_step',
          sourceId: `${event.data.user_id}:${event.data.step}`,
        },
        context(event),
      ),
    OnboardingCompleted: (event) =>
      new GrantReward(
        {
          userId: event.data.user_id,
          action: 'onboarding_complete',
          amounts: { [event.data.bonus_type]: event.data.bonus_amount },
          sourceType: 'onboarding_complete',
          sourceId: event.data.user_id,
        },
        context(event),
      ),
    UserFollowed: (event) => did(event, event.data.follower_id, 'first_follow'),
    CommunityJoined: (event) => did(event, event.data.user_id, 'join_community'),
    PostVoted: (event) => (event.data.value !== 0 ? did(event, event.data.voter_id, 'first_vote') : null),
    CommentVoted: (event) => (event.data.value !== 0 ? did(event, event.data.voter_id, 'first_vote') : null),
    CommentPosted: (event) => did(event, event.data.author_id, 'first_comment'),
    PostPublished: (event) => did(event, event.data.author_id, 'first_post'),
  });
  readonly eventTypes = this.reactions.eventTypes;

  react(event: RecordedEvent): ICommand[] {
    return this.reactions.react(event);
  }
}
