import { recordedEvent } from '../../test/support/saga-kit';
import { GrantReward, PublishPost } from '../modules/content/content.commands';
import { ExperimentPublicationSaga } from './experiment-publication.saga';

const saga = new ExperimentPublicationSaga();
const react = (type: string, data: Record<string, unknown>) => saga.react(recordedEvent(type, data, { eventId: 'e7', correlationId: 'c7' }));
const record = { experiment_id: 'x1', post_id: 'p1', creator_id: 'ann', title: 'T', hypothesis: 'H', expected_outcome: 'E', intent_category: 'health' };
const vote = (voter: string, suggestion = '') => ({ vote: { experiment_id: 'x1', voter_id: voter, suggestion }, total_votes: 1 });
const rewards = (commands: unknown[]) => (commands as GrantReward[]).map((c) => [c.payload.userId, c.payload.action, c.payload.sourceId]);

describe('experiment publication saga', () => {
  it('given ExperimentProposed, then the linked post under the experiment’s post id, and the creator’s experiment_proposed reward', () => {
    const [publish, grant] = react('ExperimentProposed', record);
    expect(publish).toBeInstanceOf(PublishPost);
    expect((publish as PublishPost).payload).toEqual({
      postId: 'p1',
      authorId: 'ann',
      title: 'T',
      content: '**Hypothesis:** H\n\n**Expected Outcome:** E',
      contentType: 'thought_experiment',
      fields: { is_thought_experiment: true, hypothesis: 'H', expected_outcome: 'E', intent_category: 'health' },
    });
    expect((publish as PublishPost).context).toEqual({ actor: 'system:experiments', correlationId: 'c7', causationId: 'e7' });
    expect(rewards([grant])).toEqual([['ann', 'experiment_proposed', 'x1']]);
    expect((grant as GrantReward).payload.amounts).toEqual({ spark: 20, pulse: 10, signal: 0.1, xp: 30 });
  });

  it('given a first vote with a suggestion, then experiment_voted and experiment_suggestion, source the (experiment, voter) pair', () =>
    expect(rewards(react('ExperimentVoteCast', vote('bob', 'try it')))).toEqual([
      ['bob', 'experiment_voted', 'x1:bob'],
      ['bob', 'experiment_suggestion', 'x1:bob'],
    ]));

  it('given a revised vote, then no voting reward again; with a suggestion, the suggestion reward (paid once by the wallet)', () => {
    expect(react('ExperimentVoteRevised', vote('bob'))).toEqual([]);
    expect(rewards(react('ExperimentVoteRevised', vote('bob', 'more')))).toEqual([['bob', 'experiment_suggestion', 'x1:bob']]);
  });

  it('given the steward’s vote, then nothing: the id names no account', () => expect(react('ExperimentVoteCast', vote('steward', 'x'))).toEqual([]));

  it('reacts to nothing else', () => expect(saga.eventTypes).toEqual(['ExperimentProposed', 'ExperimentVoteCast', 'ExperimentVoteRevised']));
});
