import { recordedEvent } from '../../test/support/saga-kit';
import { RecordSocialEncounter } from '../modules/proximity/proximity.commands';
import { EncounterRecordingSaga } from './encounter-recording.saga';

const saga = new EncounterRecordingSaga();
const commentPosted = (author: string, postAuthor: string) =>
  recordedEvent(
    'CommentPosted',
    { comment_id: 'c1', post_id: 'p1', author_id: author, post_author_id: postAuthor, parent_id: null, depth: 0, content: 'hi', parent_author_id: null, posted_at: 'x' },
    { position: 7, correlationId: 'req-1' },
  );

describe('encounter recording saga', () => {
  it('given a comment on someone else’s post, then it records a post encounter of the pair, sourced by the comment', async () => {
    const [command, ...more] = await saga.react(commentPosted('bob', 'ann'));
    expect(more).toEqual([]);
    expect(command).toBeInstanceOf(RecordSocialEncounter);
    expect(command).toMatchObject({
      payload: { userIds: ['bob', 'ann'], contextType: 'post', contextId: 'p1', locationLabel: null, source: 'comment:c1' },
      context: { actor: 'system:encounter-recording', correlationId: 'req-1', causationId: 'ev7' },
    });
  });

  it('given a comment on one’s own post, then nothing', async () => {
    expect(await saga.react(commentPosted('ann', 'ann'))).toEqual([]);
  });

  it('given a proximity match both sides revealed, then a proximity encounter of the pair, sourced by the match; a one-sided reveal records nothing', async () => {
    const revealed = (status: string) =>
      recordedEvent('ProximityRevealed', { match_id: 'pm1', user_a_id: 'ann', user_b_id: 'bob', by: 'bob', status, at: 'x' }, { position: 8, correlationId: 'req-2' });
    expect(await saga.react(revealed('matched'))).toEqual([
      expect.objectContaining({ payload: { userIds: ['ann', 'bob'], contextType: 'proximity', contextId: 'pm1', locationLabel: null, source: 'match:pm1' } }),
    ]);
    expect(await saga.react(revealed('revealed_b'))).toEqual([]);
  });

  it('given an accepted missed-connection response, then a missed_connection encounter of the pair at the post’s place, sourced by the response', async () => {
    const accepted = recordedEvent(
      'MissedConnectionResponseAccepted',
      { response_id: 'mcr1', missed_connection_id: 'mc1', poster_id: 'ann', responder_id: 'bob', location_name: 'Cafe', at: 'x' },
      { position: 9, correlationId: 'req-3' },
    );
    expect(await saga.react(accepted)).toEqual([
      expect.objectContaining({
        payload: { userIds: ['ann', 'bob'], contextType: 'missed_connection', contextId: 'mc1', locationLabel: 'Cafe', source: 'response:mcr1' },
      }),
    ]);
  });
});
