/**
 * `posts`: one document per post, the Post record of social-routes §0.5 plus
 * the fields the feeds filter and sort on, so that every feed is an index
 * walk (docs/architecture.md, "Read store": an index whose keys are the
 * filter's equality fields followed by the sort):
 *
 * - `visible`: neither deleted nor hidden (`/posts`, a community's posts);
 * - `listed`: visible and not in a private community (the feeds and search
 *   for everyone; members of private communities get their posts as well);
 * - `hot` = score + comment_count, `trend` = score + 2 × comment_count
 *   (§21.1), kept by `$inc` as votes and comments arrive;
 * - trending reads the last 24 h as a range of the `listed, created_at`
 *   index and sorts that window by `trend`.
 *
 * `post_counts` holds the totals the lists' meta needs (`all`: visible,
 * listed, listed agents' posts; `community:<id>`: visible), so a page never
 * counts a scan. View counts are not events: see post-views.read-model.ts.
 */
import type { PostEvent, PostFields, PostPlacement } from '../../aggregates/content/content.events';
import { ERASED_TEXT } from '../../aggregates/personal-data';
import type { ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc, IndexSpec } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection, type RecordedOf } from '../support/define-projection';

export const POSTS = 'posts';
export const POST_COUNTS = 'post_counts';
export const ALL_POSTS_COUNT = 'all';
export const communityCountId = (communityId: string): string => `community:${communityId}`;

/** The Post record (§0.5) as stored, with the fields the feeds filter and sort on. */
export interface PostDoc extends Doc, PostPlacement, PostFields {
  id: string;
  upvotes: number;
  downvotes: number;
  score: number;
  comment_count: number;
  is_pinned: boolean;
  is_locked: boolean;
  is_hidden: boolean;
  is_deleted: boolean;
  boost_score: number;
  region_id: string | null;
  created_at: string;
  updated_at: string;
  visible: boolean;
  listed: boolean;
  hot: number;
  trend: number;
}

export interface PostCountsDoc extends Doc {
  visible?: number;
  listed?: number;
  agents_listed?: number;
}

/** The sorts of §21.1 as index keys (newest first breaks ties). */
export const POST_SORTS = {
  new: { created_at: -1 },
  top: { score: -1, created_at: -1 },
  hot: { hot: -1, created_at: -1 },
  discussed: { comment_count: -1, created_at: -1 },
} as const;
export type PostSort = keyof typeof POST_SORTS;
export const TREND_SORT = { trend: -1, created_at: -1 } as const;

const index = (keys: IndexSpec['keys']): { collection: string; spec: IndexSpec } => ({ collection: POSTS, spec: { keys } });

/** For each sort: all visible posts, a community's visible posts, all listed posts. */
const SORT_INDEXES = Object.values(POST_SORTS).flatMap((sort) => [
  index({ visible: 1, ...sort }),
  index({ visible: 1, community_id: 1, ...sort }),
  index({ listed: 1, ...sort }),
]);

const isListed = (visible: boolean, communityPrivate: boolean): boolean => visible && !communityPrivate;

/** The counters' moves when a post's visibility goes from `was` to `now`. */
function moveCounts(
  event: { position: number },
  writer: ProjectionWriter,
  post: { community_id: string | null; community_private: boolean; author_type: string },
  was: boolean,
  now: boolean,
): void {
  if (was === now) return;
  const step = now ? 1 : -1;
  const listed = !post.community_private ? step : 0;
  applyOnce(writer, POST_COUNTS, ALL_POSTS_COUNT, event, {
    $inc: { visible: step, listed, agents_listed: post.author_type === 'agent' ? listed : 0 },
  });
  if (post.community_id) applyOnce(writer, POST_COUNTS, communityCountId(post.community_id), event, { $inc: { visible: step } });
}

const set = (event: { position: number }, writer: ProjectionWriter, postId: string, fields: Record<string, unknown>): void =>
  applyOnce(writer, POSTS, postId, event, { $set: fields }, { upsert: false });

type Recorded<T extends PostEvent['type']> = RecordedOf<T>;

export const postsProjection = defineProjection({
  name: 'posts',
  version: 2,
  collections: [POSTS, POST_COUNTS],
  indexes: [
    ...SORT_INDEXES,
    index({ listed: 1, author_type: 1, created_at: -1 }),
    index({ author_id: 1 }),
    // the personalised feed: followed authors' listed posts, newest first
    index({ listed: 1, author_id: 1, ...POST_SORTS.new }),
    index({ community_id: 1 }),
  ],
  on: {
    // a boosted post's boost_score grows by the boost's multiplier (social-routes §15); a boost of another target is not a post's
    BoostPurchased: (event, writer) => {
      if (event.data.target_type !== 'post') return;
      applyOnce(writer, POSTS, event.data.target_id, event, { $inc: { boost_score: event.data.boost_multiplier } }, { upsert: false });
    },
    PostPublished: (event: Recorded<'PostPublished'>, writer) => {
      const { post_id, published_at, ...rest } = event.data;
      applyOnce(writer, POSTS, post_id, event, {
        $set: {
          id: post_id,
          ...rest,
          upvotes: 0,
          downvotes: 0,
          score: 0,
          comment_count: 0,
          is_pinned: false,
          is_locked: false,
          is_hidden: false,
          is_deleted: false,
          boost_score: 0,
          region_id: null,
          created_at: published_at,
          updated_at: published_at,
          visible: true,
          listed: isListed(true, rest.community_private),
          hot: 0,
          trend: 0,
        },
      });
      moveCounts(event, writer, rest, false, true);
    },
    PostEdited: (event, writer) => set(event, writer, event.data.post_id, { ...event.data.changes, updated_at: event.data.edited_at }),
    PostDeleted: (event, writer) => {
      set(event, writer, event.data.post_id, { is_deleted: true, visible: false, listed: false });
      moveCounts(event, writer, event.data, event.data.was_visible, false);
    },
    PostHiddenSet: (event, writer) => {
      const visible = !event.data.hidden;
      set(event, writer, event.data.post_id, { is_hidden: event.data.hidden, visible, listed: isListed(visible, event.data.community_private) });
      moveCounts(event, writer, event.data, event.data.was_visible, visible);
    },
    PostPinSet: (event, writer) => set(event, writer, event.data.post_id, { is_pinned: event.data.pinned }),
    PostLockSet: (event, writer) => set(event, writer, event.data.post_id, { is_locked: event.data.locked }),
    PostVoted: (event, writer) => {
      const { post_id, upvotes, downvotes, score, value, previous } = event.data;
      const delta = value - previous;
      applyOnce(writer, POSTS, post_id, event, { $set: { upvotes, downvotes, score }, $inc: { hot: delta, trend: delta } }, { upsert: false });
    },
    CommentPosted: (event, writer) =>
      applyOnce(writer, POSTS, event.data.post_id, event, { $inc: { comment_count: 1, hot: 1, trend: 2 } }, { upsert: false }),
    // an author erased with their content: their posts read as the log does once the content key is gone (personal-data.ts)
    UserAnonymized: (event, writer) => {
      if (event.data.content_erased !== true) return;
      writer.write(POSTS, { updateMany: { filter: { author_id: event.data.user_id }, update: { $set: { title: ERASED_TEXT, content: ERASED_TEXT } } } });
    },
  },
});
