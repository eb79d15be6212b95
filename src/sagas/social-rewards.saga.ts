/**
 * Social rewards (social-routes §21.3): the action table of reputation
 * rewards (pulse, spark, signal, XP), paid into the user's wallet
 * (src/aggregates/contest/wallet.ts, `RewardGranted`) when the action is
 * recorded. Each reward names its source, and the wallet pays a source once,
 * so a redelivered or replayed event pays nothing more.
 *
 * - create_post: the post's author, source the post;
 * - create_comment: the comment's author, source the comment;
 * - upvote_received: the author of a post or comment upvoted by someone else
 *   (a new upvote, not a switch; self-votes earn nothing), source the
 *   (target, voter) pair: taking an upvote back and giving it again pays once,
 *   so toggling a vote cannot farm pulse.
 *
 * - proximity_match: both users of a proximity match once it is matched
 *   (§13), source the match.
 * - missed_connection: the poster and the responder of an accepted
 *   missed-connection response (§13), source the response.
 *
 * Other contexts add their rows (complete_task, recipe_shared,
 * recipe_forked) to ACTIONS and a reaction below.
 */
import { Injectable } from '@nestjs/common';
import type { ICommand } from '@nestjs/cqrs';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { ProcessManager } from '../infrastructure/sagas/process-manager';
import { GrantReward } from '../modules/content/content.commands';
import { reactions } from './support/reactions';

export interface RewardRow {
  pulse?: number;
  spark?: number;
  signal?: number;
  xp?: number;
}

/** The action table (§21.3). */
export const ACTIONS = {
  create_post: { spark: 5, signal: 0.01, xp: 10 },
  create_comment: { spark: 2, xp: 5 },
  upvote_received: { pulse: 1, xp: 2 },
  complete_task: { pulse: 10, spark: 20, xp: 50 },
  recipe_shared: { spark: 15 },
  experiment_voted: { spark: 10, pulse: 5 },
  // the experiment rows (§17), paid by the ExperimentPublicationSaga
  experiment_proposed: { spark: 20, pulse: 10, signal: 0.1, xp: 30 },
  experiment_suggestion: { spark: 15, signal: 0.05, xp: 20 },
  proximity_match: { pulse: 10 },
  missed_connection: { pulse: 5 },
} as const satisfies Record<string, RewardRow>;

export type RewardAction = keyof typeof ACTIONS;

function grant(event: Pick<RecordedEvent, 'type' | 'metadata'>, userId: string, action: RewardAction, sourceId: string): GrantReward {
  return new GrantReward(
    { userId, action, amounts: ACTIONS[action], sourceType: `${action}`, sourceId },
    { actor: 'system:social-rewards', correlationId: event.metadata.correlationId, causationId: event.metadata.eventId },
  );
}

/** A new upvote by someone other than the author. */
const newUpvote = (d: { outcome: string; value: number; previous: number; voter_id: string; target_author_id: string }): boolean =>
  d.value === 1 && d.previous === 0 && d.voter_id !== d.target_author_id;

@Injectable()
export class SocialRewardsSaga implements ProcessManager {
  readonly name = 'social-rewards';
  private readonly reactions = reactions({
    PostPublished: (event) => grant(event, event.data.author_id, 'create_post', event.data.post_id),
    CommentPosted: (event) => grant(event, event.data.author_id, 'create_comment', event.data.comment_id),
    PostVoted: (event) =>
      newUpvote(event.data) ? grant(event, event.data.target_author_id, 'upvote_received', `post:${event.data.post_id}:${event.data.voter_id}`) : null,
    CommentVoted: (event) =>
      newUpvote(event.data) ? grant(event, event.data.target_author_id, 'upvote_received', `comment:${event.data.comment_id}:${event.data.voter_id}`) : null,
    // §13: a proximity match both sides revealed pays each side, source the match
    ProximityRevealed: (event) =>
      event.data.status === 'matched'
        ? [grant(event, event.data.user_a_id, 'proximity_match', event.data.match_id), grant(event, event.data.user_b_id, 'proximity_match', event.data.match_id)]
        : null,
    // §13: an accepted missed-connection response pays both sides, source the response
    MissedConnectionResponseAccepted: (event) => [
      grant(event, event.data.poster_id, 'missed_connection', event.data.response_id),
      grant(event, event.data.responder_id, 'missed_connection', event.data.response_id),
    ],
  });
  readonly eventTypes = this.reactions.eventTypes;

  react(event: RecordedEvent): ICommand[] {
    return this.reactions.react(event);
  }
}
