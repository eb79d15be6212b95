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
});
