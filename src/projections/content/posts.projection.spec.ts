import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import type { PostFields, PostPlacement } from '../../aggregates/content/content.events';
import { postFields } from '../../aggregates/content/post';
import { ALL_POSTS_COUNT, communityCountId, POST_COUNTS, type PostDoc, POSTS, postsProjection as projection } from './posts.projection';

const fields: PostFields = postFields('t', 'c');
const placement = (extra: Partial<PostPlacement> = {}): PostPlacement => ({ author_id: 'a', author_type: 'agent', community_id: 'c1', community_private: false, ...extra });
const published = (postId: string, extra: Partial<PostPlacement> = {}) =>
  recorded('PostPublished', { post_id: postId, ...placement(extra), ...fields, published_at: '2026-05-01T10:00:00.000Z' });
const voted = (postId: string, value: 1 | -1 | 0, previous: 1 | -1 | 0, score: number) =>
  recorded('PostVoted', { post_id: postId, voter_id: 'v', target_author_id: 'a', outcome: 'voted', value, previous, upvotes: Math.max(score, 0), downvotes: Math.max(-score, 0), score, at: 'x' });
const change = (postId: string, wasVisible: boolean, extra: Partial<PostPlacement> = {}) => ({
  post_id: postId,
  ...placement(extra),
  was_visible: wasVisible,
  score: 0,
  at: 'x',
  actor_id: 'm',
});

describe('posts projection', () => {
  let store: EmbeddedReadStore;
  beforeEach(() => {
    store = new EmbeddedReadStore({ file: null });
  });

  const post = (id: string) => store.collection<PostDoc>(POSTS).findOne({ _id: id });
  const counts = (id: string) => store.collection(POST_COUNTS).findOne({ _id: id });

  it('given a published post, then it is visible and listed with zero counts, counted for all, agents and its community', async () => {
    await applyAll(projection, store, published('p1'));
    expect(await post('p1')).toMatchObject({ visible: true, listed: true, score: 0, hot: 0, trend: 0 });
    expect(await counts(ALL_POSTS_COUNT)).toMatchObject({ visible: 1, listed: 1, agents_listed: 1 });
    expect(await counts(communityCountId('c1'))).toMatchObject({ visible: 1 });
  });

  it('given a post in a private community, then it is visible but not listed', async () => {
    await applyAll(projection, store, published('p1', { community_private: true }));
    expect(await post('p1')).toMatchObject({ visible: true, listed: false });
    expect(await counts(ALL_POSTS_COUNT)).toMatchObject({ visible: 1, listed: 0 });
  });

  it('given votes and a comment, then hot is score + comments and trend score + 2 × comments', async () => {
    const past = [published('p1'), voted('p1', 1, 0, 1), voted('p1', -1, 1, -1)];
    const comment = recorded('CommentPosted', {
      comment_id: 'k',
      post_id: 'p1',
      author_id: 'b',
      parent_id: null,
      depth: 0,
      content: 'x',
      post_author_id: 'a',
      parent_author_id: null,
      posted_at: 'x',
    });
    await applyAll(projection, store, ...past, comment);
    expect(await post('p1')).toMatchObject({ score: -1, comment_count: 1, hot: 0, trend: 1 });
  });

  it('given a hidden then deleted post, then the counters go down once', async () => {
    await applyAll(
      projection,
      store,
      published('p1'),
      recorded('PostHiddenSet', { ...change('p1', true), hidden: true }),
      recorded('PostDeleted', { ...change('p1', false), by: 'author' }),
    );
    expect(await post('p1')).toMatchObject({ visible: false, listed: false, is_deleted: true, is_hidden: true });
    expect(await counts(ALL_POSTS_COUNT)).toMatchObject({ visible: 0, listed: 0, agents_listed: 0 });
  });

  it('given the same events applied twice (a replay), then nothing is counted twice', async () => {
    const events = [published('p1'), voted('p1', 1, 0, 1)];
    await applyAll(projection, store, ...events);
    await applyAll(projection, store, ...events);
    expect(await post('p1')).toMatchObject({ score: 1, hot: 1 });
    expect(await counts(ALL_POSTS_COUNT)).toMatchObject({ visible: 1 });
  });
});
