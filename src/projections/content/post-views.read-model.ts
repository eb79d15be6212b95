/**
 * `post_views`: how many times each post was read by id (GET /posts/{id}
 * counts a view, social-routes §4). A view is not a decision and not worth
 * an event on the write path (a popular post would grow its stream and the
 * log with every read), so the query side bumps a counter here directly: one
 * `$inc` upsert per read. It is no projection's collection, so
 * `projections:rebuild` leaves it as it is; the Post record's `view_count`
 * is read from it. Counts are best effort: a read whose bump fails still
 * answers.
 */
import type { Doc, ReadStore } from '../../infrastructure/read-store/read-store.port';

export const POST_VIEWS = 'post_views';

interface PostViewsDoc extends Doc {
  views: number;
}

/** Counts one view of the post; resolves to the new count. */
export async function countView(store: ReadStore, postId: string): Promise<number> {
  const views = store.collection<PostViewsDoc>(POST_VIEWS);
  await views.updateOne({ _id: postId }, { $inc: { views: 1 } }, { upsert: true });
  return (await views.findOne({ _id: postId }))?.views ?? 1;
}

/** The view counts of these posts (absent: 0). */
export async function viewsOf(store: ReadStore, postIds: readonly string[]): Promise<Map<string, number>> {
  if (postIds.length === 0) return new Map();
  const docs = await store.collection<PostViewsDoc>(POST_VIEWS).find({ _id: { $in: [...postIds] } });
  return new Map(docs.map((doc) => [doc._id, doc.views]));
}
