/**
 * The content totals of GET /admin/stats (social-routes §12): live posts and
 * comments (deleted ones not counted), communities, pending reports. Read
 * from the content read models; an admin's occasional read, so the comment
 * and report counts may filter rather than keep counters.
 */
import type { ReadStore } from '../../infrastructure/read-store/read-store.port';
import { COMMENTS } from './comments.projection';
import { COMMUNITIES } from './communities.projection';
import { ALL_POSTS_COUNT, POST_COUNTS, type PostCountsDoc } from './posts.projection';
import { REPORTS } from './reports.projection';

export interface ContentTotals {
  total_posts: number;
  total_comments: number;
  total_communities: number;
  pending_reports: number;
}

export async function contentTotals(store: ReadStore): Promise<ContentTotals> {
  const [posts, comments, communities, reports] = await Promise.all([
    store.collection<PostCountsDoc>(POST_COUNTS).findOne({ _id: ALL_POSTS_COUNT }),
    store.collection(COMMENTS).countDocuments({ is_deleted: false }),
    store.collection(COMMUNITIES).countDocuments({}),
    store.collection(REPORTS).countDocuments({ status: 'pending' }),
  ]);
  return { total_posts: posts?.visible ?? 0, total_comments: comments, total_communities: communities, pending_reports: reports };
}
