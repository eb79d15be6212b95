import { deciderKit } from '../../../test/support/decider-kit';
import type { PostEvent, PostFields, PostPlacement } from './content.events';
import { type PostActor, type PostCommand, postDecider, postFields } from './post';

const now = new Date('2026-05-01T12:00:00.000Z');
const at = now.toISOString();
const { given, history } = deciderKit(postDecider, now);

const placement: PostPlacement = { author_id: 'alice', author_type: 'human', community_id: null, community_private: false };
const fields: PostFields = postFields('Hello', 'World');
const publish: PostCommand = { kind: 'publish', postId: 'p1', placement, fields };
const published = history(publish);
const actor = (userId: string, extra: Partial<PostActor> = {}): PostActor => ({ userId, isAdmin: false, ...extra });
const vote = (voterId: string, direction: 'up' | 'down' | 'clear'): PostCommand => ({ kind: 'vote', voterId, direction });

describe('post', () => {
  it('given nothing, when publishing, then PostPublished carries the placement and fields', () =>
    given().when(publish).then({ type: 'PostPublished', data: { post_id: 'p1', ...placement, ...fields, published_at: at } }));

  it('given a post, when another user edits it, then it is refused', () =>
    given(...published).when({ kind: 'edit', actor: actor('bob'), changes: { title: 'x' } }).thenRefused('forbidden', "Cannot edit another user's post"));

  it('given a post, when an admin edits it, then the change is recorded', () =>
    given(...published)
      .when({ kind: 'edit', actor: actor('root', { isAdmin: true }), changes: { title: 'x' } })
      .then({ type: 'PostEdited', data: { post_id: 'p1', changes: { title: 'x' }, edited_at: at } }));

  it('given a post, when another user deletes it, then it is refused', () =>
    given(...published).when({ kind: 'delete', actor: actor('bob'), by: 'author' }).thenRefused('forbidden', "Cannot delete another user's post"));

  it('given a deleted post, when voting, then it is 404 post not found', () =>
    given(...published, ...history(publish, { kind: 'delete', actor: actor('alice'), by: 'author' }).slice(1))
      .when(vote('bob', 'up'))
      .thenRefused('not_found', 'post not found'));

  it('given a vote by bob, when bob re-casts a vote only if he has none, then nothing; carol’s is cast', () => {
    const voted = [...published, ...history(publish, vote('bob', 'down')).slice(1)];
    given(...voted).when({ kind: 'vote', voterId: 'bob', direction: 'up', onlyIfNone: true }).thenNothing();
    expect(given(...voted).when({ kind: 'vote', voterId: 'carol', direction: 'up', onlyIfNone: true }).events()).toHaveLength(1);
  });

  it('given a post deleted by moderation, then its state says who deleted it', () =>
    expect(given(...history(publish, { kind: 'delete', actor: actor('root', { isAdmin: true }), by: 'moderation' })).state()).toMatchObject({ status: 'deleted', deletedBy: 'moderation' }));

  it('given nothing, when voting, then it is 404 post not found', () => given().when(vote('bob', 'up')).thenRefused('not_found', 'post not found'));

  it('given a post, when a first upvote comes, then voted with score 1 and the author named', () => {
    const [event] = given(...published).when(vote('bob', 'up')).events() as Extract<PostEvent, { type: 'PostVoted' }>[];
    expect(event.data).toMatchObject({ voter_id: 'bob', target_author_id: 'alice', outcome: 'voted', value: 1, previous: 0, upvotes: 1, downvotes: 0, score: 1 });
  });

  it('given an upvote, when the same user upvotes again, then the vote is removed', () => {
    const past = history(publish, vote('bob', 'up'));
    expect(given(...past).when(vote('bob', 'up')).events()[0].data).toMatchObject({ outcome: 'removed', value: 0, previous: 1, upvotes: 0, score: 0 });
  });

  it('given an upvote, when the same user downvotes, then the vote is changed and the score is -1', () => {
    const past = history(publish, vote('bob', 'up'));
    expect(given(...past).when(vote('bob', 'down')).events()[0].data).toMatchObject({ outcome: 'changed', value: -1, previous: 1, upvotes: 0, downvotes: 1, score: -1 });
  });

  it('given no vote by the user, when clearing, then nothing is recorded (idempotent)', () => given(...published).when(vote('bob', 'clear')).thenNothing());

  it('given many voters in any order, then the counts are the sum of each voter’s last vote', () => {
    const past = history(publish, vote('a', 'up'), vote('b', 'up'), vote('c', 'down'), vote('a', 'down'), vote('b', 'up'), vote('d', 'up'));
    const state = given(...past).state();
    expect(state.status === 'published' && { up: state.tally.upvotes, down: state.tally.downvotes }).toEqual({ up: 1, down: 2 });
  });

  it('given a post, when a user without the moderator flag locks it, then 403 Moderator access required', () =>
    given(...published).when({ kind: 'toggleLock', actor: actor('bob') }).thenRefused('forbidden', 'Moderator access required'));

  it('given a pinned post, when pinned again by a community moderator, then it is unpinned (toggle)', () => {
    const past = history(publish, { kind: 'togglePin', actor: actor('mod', { mayPin: true }) });
    expect(given(...past).when({ kind: 'togglePin', actor: actor('mod', { mayPin: true }) }).events()[0]).toMatchObject({ type: 'PostPinSet', data: { pinned: false } });
  });

  it('given a hidden post, when hidden again, then nothing is recorded', () => {
    const past = history(publish, { kind: 'setHidden', actor: actor('mod', { isModerator: true }), hidden: true });
    given(...past).when({ kind: 'setHidden', actor: actor('mod', { isModerator: true }), hidden: true }).thenNothing();
  });

  it('given a voted post, when deleted, then the event carries the score to take off karma and the visibility before', () => {
    const past = history(publish, vote('b', 'up'), vote('c', 'up'));
    expect(given(...past).when({ kind: 'delete', actor: actor('alice'), by: 'author' }).events()[0].data).toMatchObject({ score: 2, was_visible: true, by: 'author' });
  });
});
