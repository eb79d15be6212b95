import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { defineProjection } from '../support/define-projection';
import { NOTIFICATIONS_COLLECTION, NOTIFICATIONS_CONTENT_HANDLERS } from './notifications.content.handlers';

/** The map as the accounts context's notifications projection will hold it. */
const projection = defineProjection({ name: 'notificationsContentSpec', version: 1, collections: [NOTIFICATIONS_COLLECTION], on: NOTIFICATIONS_CONTENT_HANDLERS });

const comment = (author: string, postAuthor: string, parentAuthor: string | null) =>
  recorded('CommentPosted', { comment_id: `k-${author}`, post_id: 'p1', author_id: author, parent_id: parentAuthor ? 'k0' : null, depth: parentAuthor ? 1 : 0, content: 'x', post_author_id: postAuthor, parent_author_id: parentAuthor, posted_at: 't' });
const vote = (voter: string, value: 1 | -1 | 0, previous: 1 | -1 | 0) =>
  recorded('PostVoted', { post_id: 'p1', voter_id: voter, target_author_id: 'ann', outcome: 'voted', value, previous, upvotes: 0, downvotes: 0, score: 0, at: 't' });

describe('notifications from content events', () => {
  const notices = async (...events: ReturnType<typeof recorded>[]) => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, ...events);
    return (await store.collection(NOTIFICATIONS_COLLECTION).find({}, { sort: { _id: 1 } })).map((n) => [n.user_id, n.type, n.source_user_id]);
  };

  it('given a reply on someone else’s post, then the post author hears `comment` and the parent’s author `reply`', async () =>
    expect(await notices(comment('bob', 'ann', 'cid'))).toEqual([
      ['ann', 'comment', 'bob'],
      ['cid', 'reply', 'bob'],
    ]));

  it('given a comment on one’s own post, then nobody is told', async () => expect(await notices(comment('ann', 'ann', null))).toEqual([]));

  it('given new upvotes, a switch, a removal and a self-vote, then only the new upvote by another is told', async () =>
    expect(await notices(vote('bob', 1, 0), vote('cid', 1, -1), vote('dan', 0, 1), vote('ann', 1, 0))).toEqual([['ann', 'upvote', 'bob']]));
});
