import { recorded } from '../../../test/support/projection-kit';
import { notificationsOf } from './notification-rules';

const vote = (type: 'PostVoted' | 'CommentVoted', outcome: 'voted' | 'changed' | 'removed', value: 1 | -1 | 0, voter = 'v1') =>
  recorded(type, {
    voter_id: voter,
    target_author_id: 'author',
    outcome,
    value,
    previous: 0,
    upvotes: 1,
    downvotes: 0,
    score: 1,
    at: 't',
    post_id: 'p1',
    ...(type === 'CommentVoted' ? { comment_id: 'c1' } : {}),
  } as never);

const comment = (parentAuthor: string | null, author = 'commenter') =>
  recorded('CommentPosted', {
    comment_id: 'c2',
    post_id: 'p1',
    author_id: author,
    parent_id: parentAuthor ? 'c1' : null,
    depth: parentAuthor ? 1 : 0,
    content: 'hi',
    post_author_id: 'author',
    parent_author_id: parentAuthor,
    posted_at: 't',
  });

describe('content notification rules', () => {
  it('given a top-level comment, then the post author is told (comment)', () => {
    expect(notificationsOf(comment(null)).map((n) => [n.user_id, n.type, n.target_id])).toEqual([['author', 'comment', 'p1']]);
  });

  it('given a reply, then the post author (comment) and the parent comment author (reply) are told', () => {
    expect(notificationsOf(comment('parent')).map((n) => [n.user_id, n.type])).toEqual([
      ['author', 'comment'],
      ['parent', 'reply'],
    ]);
  });

  it('given a reply to the post author’s own comment, then they are told once, as a reply', () => {
    expect(notificationsOf(comment('author')).map((n) => [n.user_id, n.type])).toEqual([['author', 'reply']]);
  });

  it('given the post author comments on their own post, then nobody is told', () => {
    expect(notificationsOf(comment(null, 'author'))).toEqual([]);
  });

  it('given a new upvote on a post or a comment, then its author is told (upvote)', () => {
    expect(notificationsOf(vote('PostVoted', 'voted', 1)).map((n) => [n.user_id, n.type, n.target_type])).toEqual([['author', 'upvote', 'post']]);
    expect(notificationsOf(vote('CommentVoted', 'voted', 1)).map((n) => [n.target_type, n.target_id])).toEqual([['comment', 'c1']]);
  });

  it.each([
    ['a downvote', 'voted', -1],
    ['a switch to up', 'changed', 1],
    ['a removal', 'removed', 0],
  ] as const)('given %s, then nobody is told', (_, outcome, value) => {
    expect(notificationsOf(vote('PostVoted', outcome, value))).toEqual([]);
  });
});
