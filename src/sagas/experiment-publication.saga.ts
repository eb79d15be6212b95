/**
 * What follows from a thought experiment's events (social-routes §17, §21.3):
 *
 * - ExperimentProposed → PublishPost: the linked post (content_type
 *   thought_experiment, is_thought_experiment, hypothesis, expected_outcome,
 *   intent_category) under the post id the experiment names, so a redelivery
 *   is refused as `post already exists` and publishes nothing twice; and
 *   GrantReward experiment_proposed to the creator, source the experiment.
 * - ExperimentVoteCast → GrantReward experiment_voted to the voter, source
 *   the (experiment, voter) pair: the wallet pays a source once, so revising
 *   a vote pays nothing more (the original paid on every call: a farm).
 * - A vote cast or revised with a suggestion → experiment_suggestion, once
 *   per (experiment, voter).
 *
 * The `steward` voter id of a flat node names no account: it earns nothing.
 */
import { Injectable } from '@nestjs/common';
import type { ICommand } from '@nestjs/cqrs';
import { STEWARD_VOTER_ID, type VoteRecord } from '../aggregates/experiments/experiment';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { ProcessManager } from '../infrastructure/sagas/process-manager';
import { GrantReward, PublishPost } from '../modules/content/content.commands';
import { ACTIONS, type RewardAction } from './social-rewards.saga';
import { reactions } from './support/reactions';

type Cause = Pick<RecordedEvent, 'metadata'>;

const contextOf = (event: Cause) => ({ actor: 'system:experiments', correlationId: event.metadata.correlationId, causationId: event.metadata.eventId });

function grant(event: Cause, userId: string, action: RewardAction, sourceId: string): GrantReward {
  return new GrantReward({ userId, action, amounts: ACTIONS[action], sourceType: action, sourceId }, contextOf(event));
}

function voteRewards(event: Cause, vote: VoteRecord, first: boolean): ICommand[] {
  if (vote.voter_id === STEWARD_VOTER_ID) return [];
  const source = `${vote.experiment_id}:${vote.voter_id}`;
  const commands: ICommand[] = first ? [grant(event, vote.voter_id, 'experiment_voted', source)] : [];
  if (vote.suggestion.trim() !== '') commands.push(grant(event, vote.voter_id, 'experiment_suggestion', source));
  return commands;
}

@Injectable()
export class ExperimentPublicationSaga implements ProcessManager {
  readonly name = 'experiment-publication';
  private readonly reactions = reactions({
    ExperimentProposed: (event) => {
      const d = event.data;
      const content = `**Hypothesis:** ${d.hypothesis}\n\n**Expected Outcome:** ${d.expected_outcome}`;
      const publish = new PublishPost(
        {
          postId: d.post_id,
          authorId: d.creator_id,
          title: d.title,
          content,
          contentType: 'thought_experiment',
          fields: { is_thought_experiment: true, hypothesis: d.hypothesis, expected_outcome: d.expected_outcome, intent_category: d.intent_category },
        },
        contextOf(event),
      );
      return [publish, grant(event, d.creator_id, 'experiment_proposed', d.experiment_id)];
    },
    ExperimentVoteCast: (event) => voteRewards(event, event.data.vote, true),
    ExperimentVoteRevised: (event) => voteRewards(event, event.data.vote, false),
  });
  readonly eventTypes = this.reactions.eventTypes;

  react(event: RecordedEvent): ICommand[] {
    return this.reactions.react(event);
  }
}
