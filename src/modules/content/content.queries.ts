/**
 * Reads of the content context: read models only (`posts`, `votes`,
 * `comments`, `communities`, `community_members`, `reports`, and the users'
 * records for authors), filters built from typed values. Feeds and lists are
 * index walks (see posts.projection.ts); totals come from counters, never
 * from a scan. Command handlers use the lookups here only to find a stream
 * (a community by name or id).
 */
import { Inject, Injectable } from '@nestjs/common';
import type { PostFields, PostPlacement } from '../../aggregates/content/content.events';
import { DomainError } from '../../aggregates/shared/domain-error';
import { READ_STORE, type ReadStore, type Filter, type SortSpec } from '../../infrastructure/read-store/read-store.port';
import type { UserDoc } from '../../projections/accounts/users.projection';
import { COMMENTS, type CommentDoc, type CommentRecordFields } from '../../projections/content/comments.projection';
import { COMMUNITIES, COMMUNITY_MEMBERS, type CommunityDoc, type CommunityRecordFields, type CommunityMemberDoc, memberDocId } from '../../projections/content/communities.projection';
import { countView, viewsOf } from '../../projections/content/post-views.read-model';
import {
  ALL_POSTS_COUNT,
  communityCountId,
  POST_COUNTS,
  POST_SORTS,
  type PostCountsDoc,
  type PostDoc,
  type PostSort,
  POSTS,
  TREND_SORT,
} from '../../projections/content/posts.projection';
import { REPORTS, type ReportDoc } from '../../projections/content/reports.projection';
import { VOTES, type VoteDoc, voteDocId, type VoteTargetType } from '../../projections/content/votes.projection';
import { AccountsQueries, toUserView, type UserView } from '../accounts/accounts.queries';
import type { Page } from '../common/paging';
import { escapeHtml } from '../common/html-escape';

/** The Post record (+author, +user_vote) as clients see it. */
export interface PostView extends Omit<PostPlacement, 'author_type' | 'community_private'>, PostFields {
  id: string;
  upvotes: number;
  downvotes: number;
  score: number;
  comment_count: number;
  view_count: number;
  is_pinned: boolean;
  is_locked: boolean;
  boost_score: number;
  region_id: string | null;
  is_hidden: boolean;
  created_at: string;
  updated_at: string;
  author: UserView | null;
  user_vote?: number;
}

export interface CommentView extends CommentRecordFields {
  author: UserView | null;
}

export interface CommunityView extends CommunityRecordFields {
  is_member?: boolean;
  role?: string | null;
}

/** The original names the fields after its agent brand; ours say `agent`. */
export interface AgentSpotlight {
  agent_of_the_day: { id: string; username: string; display_name: string; avatar_url: string | null; user_type: string; total_agents_today: number } | null;
  rising_agents: { id: string; username: string; display_name: string; avatar_url: string | null; user_type: string; karma_score: number }[];
  your_agents: UserView[];
}

export interface VoterView {
  user_id: string;
  name: string;
  profilePic: string | null;
}

/** What a Post view is built from: a `posts` document or a post stream's outcome. */
export type PostSource = Omit<PostView, 'author' | 'user_vote' | 'view_count' | 'comment_count' | 'boost_score' | 'region_id'> &
  Partial<Pick<PostView, 'comment_count' | 'boost_score' | 'region_id'>>;

/** The Post record (+author, +user_vote) as clients see it; user text escaped (§0.1). */
export function toPostView(post: PostSource, author: UserDoc | null | undefined, views: number, userVote?: number): PostView {
  const view: PostView = {
    id: post.id,
    author_id: post.author_id,
    community_id: post.community_id,
    title: escapeHtml(post.title),
    content: escapeHtml(post.content),
    content_type: post.content_type,
    code_language: post.code_language,
    recipe_ref: post.recipe_ref,
    media_urls: post.media_urls,
    link_url: post.link_url,
    upvotes: post.upvotes,
    downvotes: post.downvotes,
    score: post.score,
    comment_count: post.comment_count ?? 0,
    view_count: views,
    is_pinned: post.is_pinned,
    is_locked: post.is_locked,
    source_channel: post.source_channel,
    boost_score: post.boost_score ?? 0,
    region_id: post.region_id ?? null,
    intent_category: post.intent_category === null ? null : escapeHtml(post.intent_category),
    hypothesis: post.hypothesis === null ? null : escapeHtml(post.hypothesis),
    expected_outcome: post.expected_outcome === null ? null : escapeHtml(post.expected_outcome),
    is_thought_experiment: post.is_thought_experiment,
    is_hidden: post.is_hidden,
    dynamic_layout: post.dynamic_layout,
    created_at: post.created_at,
    updated_at: post.updated_at,
    author: author ? toUserView(author, false) : null,
  };
  if (userVote !== undefined) view.user_vote = userVote;
  return view;
}

export type CommentSource = Omit<CommentView, 'author'>;

export function toCommentView(comment: CommentSource, author: UserDoc | null | undefined): CommentView {
  return {
    id: comment.id,
    post_id: comment.post_id,
    author_id: comment.author_id,
    parent_id: comment.parent_id,
    content: escapeHtml(comment.content),
    upvotes: comment.upvotes,
    downvotes: comment.downvotes,
    score: comment.score,
    depth: comment.depth,
    is_deleted: comment.is_deleted,
    is_hidden: comment.is_hidden,
    created_at: comment.created_at,
    author: author ? toUserView(author, false) : null,
  };
}

export function toCommunityView(doc: Omit<CommunityView, 'is_member' | 'role'>): CommunityView {
  return {
    id: doc.id,
    name: doc.name,
    display_name: escapeHtml(doc.display_name),
    description: escapeHtml(doc.description),
    rules: escapeHtml(doc.rules),
    icon_url: doc.icon_url,
    banner_url: doc.banner_url,
    creator_id: doc.creator_id,
    is_default: doc.is_default,
    is_private: doc.is_private,
    member_count: doc.member_count,
    post_count: doc.post_count,
    created_at: doc.created_at,
  };
}

/** Which posts a list shows (§21.1): `visible` (not deleted or hidden) or `listed` (also not in a private community). */
export interface PostListQuery {
  sort: PostSort;
  communityId?: string | null;
  scope: 'visible' | 'listed';
}

const DAY_MS = 86_400_000;
/** The follow graph's read model (accounts context): `{follower_id, followee_id}` per follow. */
export const FOLLOWS = 'follows';

@Injectable()
export class ContentQueries {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    private readonly accounts: AccountsQueries,
  ) {}

  // ---- posts ----

  postDoc(postId: string): Promise<PostDoc | null> {
    return this.store.collection<PostDoc>(POSTS).findOne({ _id: String(postId) });
  }

  /** GET /posts/{id}: 404 for a deleted post (a hidden one is still served); counts a view. */
  async postById(postId: string, viewerId: string | null): Promise<PostView> {
    const doc = await this.postDoc(postId);
    if (!doc || doc.is_deleted) throw new DomainError('not_found', 'Post not found');
    const views = await countView(this.store, doc.id);
    return (await this.shapePosts([doc], viewerId, new Map([[doc.id, views]])))[0];
  }

  /** A post outcome of a command, shaped like the reads (author and view count from the read models). */
  async shapeOutcome(post: PostSource, viewerId: string | null): Promise<PostView> {
    const [authors, views] = await Promise.all([this.accounts.usersByIds([post.author_id]), viewsOf(this.store, [post.id])]);
    return toPostView(post, authors.get(post.author_id), views.get(post.id) ?? 0, viewerId ? await this.voteOf('post', post.id, viewerId) : undefined);
  }

  /** Posts with their authors, view counts and (for a signed-in viewer) the viewer's votes: three reads by id for a page. */
  async shapePosts(docs: readonly PostDoc[], viewerId: string | null, knownViews?: Map<string, number>): Promise<PostView[]> {
    const ids = docs.map((doc) => doc.id);
    const [authors, views, votes] = await Promise.all([
      this.accounts.usersByIds(docs.map((doc) => doc.author_id)),
      knownViews ?? viewsOf(this.store, ids),
      viewerId ? this.votesOf('post', ids, viewerId) : Promise.resolve(null),
    ]);
    return docs.map((doc) => toPostView(doc, authors.get(doc.author_id), views.get(doc.id) ?? 0, votes ? (votes.get(doc.id) ?? 0) : undefined));
  }

  /** A page of posts in one of the §21.1 orders, with the total from the counters. */
  async postsPage(query: PostListQuery, page: Page, viewerId: string | null): Promise<{ items: PostView[]; total: number }> {
    const privateOnes = query.scope === 'listed' && viewerId ? await this.privateCommunitiesOf(viewerId) : [];
    if (privateOnes.length > 0) return this.listedWithPrivate(query.sort, privateOnes, page, viewerId);
    const filter: Filter = query.scope === 'listed' ? { listed: true } : { visible: true };
    if (query.communityId) filter.community_id = query.communityId;
    const [docs, total] = await Promise.all([
      this.store.collection<PostDoc>(POSTS).find(filter, { sort: POST_SORTS[query.sort], skip: page.offset, limit: page.limit }),
      this.postTotal(query),
    ]);
    return { items: await this.shapePosts(docs, viewerId), total };
  }

  /** The private communities the viewer belongs to (ids): their posts are shown to the viewer too (§21.1). */
  async privateCommunitiesOf(viewerId: string): Promise<string[]> {
    const joined = await this.communitiesOf(viewerId);
    if (joined.length === 0) return [];
    const docs = await this.store.collection<CommunityDoc>(COMMUNITIES).find({ _id: { $in: joined }, is_private: true });
    return docs.map((d) => d.id);
  }

  /** Listed posts plus the visible posts of the viewer's private communities: a filtered read, for members of private communities only. */
  private async listedWithPrivate(sort: PostSort, communityIds: string[], page: Page, viewerId: string | null): Promise<{ items: PostView[]; total: number }> {
    const filter: Filter = { visible: true, $or: [{ listed: true }, { community_id: { $in: communityIds } }] };
    const counts = this.store.collection<PostCountsDoc>(POST_COUNTS);
    const [docs, all, ...own] = await Promise.all([
      this.store.collection<PostDoc>(POSTS).find(filter, { sort: POST_SORTS[sort], skip: page.offset, limit: page.limit }),
      counts.findOne({ _id: ALL_POSTS_COUNT }),
      ...communityIds.map((id) => counts.findOne({ _id: communityCountId(id) })),
    ]);
    const total = (all?.listed ?? 0) + own.reduce((sum, doc) => sum + (doc?.visible ?? 0), 0);
    return { items: await this.shapePosts(docs, viewerId), total };
  }

  private async postTotal(query: PostListQuery): Promise<number> {
    const counts = this.store.collection<PostCountsDoc>(POST_COUNTS);
    if (query.communityId) return (await counts.findOne({ _id: communityCountId(query.communityId) }))?.visible ?? 0;
    const all = await counts.findOne({ _id: ALL_POSTS_COUNT });
    return (query.scope === 'listed' ? all?.listed : all?.visible) ?? 0;
  }

  /** Posts by agents, newest first (/feed/agents). */
  async agentPostsPage(page: Page, viewerId: string | null): Promise<{ items: PostView[]; total: number }> {
    const [docs, all] = await Promise.all([
      this.store.collection<PostDoc>(POSTS).find({ listed: true, author_type: 'agent' }, { sort: POST_SORTS.new, skip: page.offset, limit: page.limit }),
      this.store.collection<PostCountsDoc>(POST_COUNTS).findOne({ _id: ALL_POSTS_COUNT }),
    ]);
    return { items: await this.shapePosts(docs, viewerId), total: all?.agents_listed ?? 0 };
  }

  /**
   * Trending (§21.1): listed posts of the last 24 h by score + 2 × comments,
   * then newest. One window read on the `created_at` index (`listed`,
   * `created_at >= now − 24 h`), sorted by trend up to the page's end, and
   * its count.
   */
  async trendingPage(page: Page, viewerId: string | null, now: Date): Promise<{ items: PostView[]; total: number }> {
    const window = trendingWindow(now);
    const posts = this.store.collection<PostDoc>(POSTS);
    const [docs, total] = await Promise.all([posts.find(window, { sort: TREND_SORT, skip: page.offset, limit: page.limit }), posts.countDocuments(window)]);
    return { items: await this.shapePosts(docs, viewerId), total };
  }

  /**
   * The personalised feed (§21.1): posts by the users the viewer follows
   * (the accounts context's `follows` read model) and posts in the
   * communities the viewer joined, newest first, under the feeds' visibility
   * filter (a followed author's post in a private community the viewer did
   * not join is left out); null when the viewer follows nobody and belongs
   * nowhere (the caller then serves trending). Two sorted `$in` reads, each
   * served from an index up to the page's end, merged here; the total is
   * |authors| + |communities| − |both|, three counts.
   */
  async personalPage(viewerId: string, page: Page): Promise<{ items: PostView[]; total: number } | null> {
    const [follows, communities] = await Promise.all([
      this.store.collection<{ _id: string; followee_id?: string }>(FOLLOWS).find({ follower_id: String(viewerId) }),
      this.communitiesOf(viewerId),
    ]);
    const authors = follows.map((f) => f.followee_id).filter((id): id is string => typeof id === 'string');
    if (authors.length === 0 && communities.length === 0) return null;
    const posts = this.store.collection<PostDoc>(POSTS);
    const byAuthors: Filter = { listed: true, author_id: { $in: authors } };
    const inCommunities: Filter = { visible: true, community_id: { $in: communities } };
    const read = { sort: POST_SORTS.new, limit: page.offset + page.limit };
    const none = Promise.resolve([] as PostDoc[]);
    const [fromAuthors, fromCommunities, authorCount, communityCount, bothCount] = await Promise.all([
      authors.length ? posts.find(byAuthors, read) : none,
      communities.length ? posts.find(inCommunities, read) : none,
      authors.length ? posts.countDocuments(byAuthors) : 0,
      communities.length ? posts.countDocuments(inCommunities) : 0,
      authors.length && communities.length ? posts.countDocuments({ ...byAuthors, community_id: { $in: communities } }) : 0,
    ]);
    const merged = new Map<string, PostDoc>();
    for (const doc of [...fromAuthors, ...fromCommunities]) merged.set(doc._id, doc);
    const all = [...merged.values()].sort(newestFirst);
    return { items: await this.shapePosts(all.slice(page.offset, page.offset + page.limit), viewerId), total: authorCount + communityCount - bothCount };
  }

  // ---- agent spotlight (§7) ----

  /**
   * /feed/agent-spotlight: the agent whose posts of the last 24 h drew the
   * most upvotes, up to 5 agents created in the last 7 days with a post
   * (highest karma first, not banned), and up to 10 of the viewer's agents.
   */
  async agentSpotlight(viewerId: string | null, now: Date): Promise<AgentSpotlight> {
    const weekAgo = new Date(now.getTime() - 7 * DAY_MS).toISOString();
    const recent = await this.store.collection<PostDoc>(POSTS).find(trendingWindow(now));
    const upvotes = new Map<string, number>();
    for (const post of recent) if (post.author_type === 'agent') upvotes.set(post.author_id, (upvotes.get(post.author_id) ?? 0) + post.upvotes);
    const top = [...upvotes.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
    const users = this.store.collection<UserDoc>('users');
    const [topUser, newAgents, mine] = await Promise.all([
      top ? users.findOne({ _id: top[0] }) : Promise.resolve(null),
      users.find({ user_type: 'agent', is_banned: { $ne: true }, created_at: { $gte: weekAgo }, post_count: { $gte: 1 } }, { sort: { karma_score: -1, created_at: 1 }, limit: 5 }),
      viewerId ? users.find({ user_type: 'agent', owner_id: String(viewerId) }, { sort: { created_at: 1 }, limit: 10 }) : Promise.resolve([]),
    ]);
    const brief = (user: UserDoc) => {
      const view = toUserView(user, false);
      return { id: view.id, username: view.username, display_name: view.display_name, avatar_url: view.avatar_url, user_type: view.user_type };
    };
    return {
      agent_of_the_day: topUser && top ? { ...brief(topUser), total_agents_today: top[1] } : null,
      rising_agents: newAgents.map((u) => ({ ...brief(u), karma_score: u.karma_score })),
      your_agents: mine.map((u) => toUserView(u, false)),
    };
  }

  // ---- syndication (§7) ----

  /** A user's listed posts, newest first (hash index on author_id, then sorted). */
  async postsByAuthor(userId: string, limit: number): Promise<PostDoc[]> {
    const docs = await this.store.collection<PostDoc>(POSTS).find({ author_id: String(userId), listed: true });
    return docs.sort(newestFirst).slice(0, limit);
  }

  /** The raw (unescaped) documents of a feed page, for syndication. */
  async feedDocs(kind: 'global' | 'trending' | 'agents', limit: number, now: Date): Promise<PostDoc[]> {
    const posts = this.store.collection<PostDoc>(POSTS);
    if (kind === 'agents') return posts.find({ listed: true, author_type: 'agent' }, { sort: POST_SORTS.new, limit });
    if (kind === 'global') return posts.find({ listed: true }, { sort: POST_SORTS.new, limit });
    return posts.find(trendingWindow(now), { sort: TREND_SORT, limit });
  }

  /** A community's visible posts, newest first. */
  communityDocs(communityId: string, limit: number): Promise<PostDoc[]> {
    return this.store.collection<PostDoc>(POSTS).find({ visible: true, community_id: communityId }, { sort: POST_SORTS.new, limit });
  }

  /** The posts of the personalised feed as raw documents (null: the viewer follows nobody and belongs nowhere). */
  async personalDocs(viewerId: string, limit: number): Promise<PostDoc[] | null> {
    const page = await this.personalPage(viewerId, { offset: 0, limit });
    if (!page) return null;
    const ids = page.items.map((p) => p.id);
    const docs = await this.store.collection<PostDoc>(POSTS).find({ _id: { $in: ids } });
    return docs.sort(newestFirst);
  }

  // ---- search (§8) ----

  /** Listed posts (and the viewer's private communities' posts) whose title or content holds `q`, any case; highest score first. */
  async searchPosts(q: string, page: Page, viewerId: string | null): Promise<PostView[]> {
    const pattern = containsPattern(q);
    const privateOnes = viewerId ? await this.privateCommunitiesOf(viewerId) : [];
    const scope: Filter = privateOnes.length ? { visible: true, $or: [{ listed: true }, { community_id: { $in: privateOnes } }] } : { listed: true };
    const docs = await this.store
      .collection<PostDoc>(POSTS)
      .find({ $and: [scope, { $or: [{ title: pattern }, { content: pattern }] }] }, { sort: { score: -1, created_at: -1 }, skip: page.offset, limit: page.limit });
    return this.shapePosts(docs, viewerId);
  }

  /** Users (not banned) whose username or display name holds `q`, any case. */
  async searchUsers(q: string, page: Page): Promise<UserView[]> {
    const pattern = containsPattern(q);
    const docs = await this.store
      .collection<UserDoc>('users')
      .find({ is_banned: { $ne: true }, $or: [{ username: pattern }, { display_name: pattern }] }, { sort: { created_at: 1, _id: 1 }, skip: page.offset, limit: page.limit });
    return docs.map((doc) => toUserView(doc, false));
  }

  /** Communities whose name or description holds `q`, any case; most members first. */
  async searchCommunities(q: string, page: Page): Promise<CommunityView[]> {
    const pattern = containsPattern(q);
    const docs = await this.store
      .collection<CommunityDoc>(COMMUNITIES)
      .find({ $or: [{ name: pattern }, { description: pattern }] }, { sort: { member_count: -1, created_at: 1 }, skip: page.offset, limit: page.limit });
    return docs.map(toCommunityView);
  }

  // ---- votes ----

  async voteOf(targetType: VoteTargetType, targetId: string, voterId: string): Promise<number> {
    const doc = await this.store.collection<VoteDoc>(VOTES).findOne({ _id: voteDocId(targetType, targetId, voterId) });
    return doc?.value ?? 0;
  }

  private async votesOf(targetType: VoteTargetType, targetIds: readonly string[], voterId: string): Promise<Map<string, number>> {
    if (targetIds.length === 0) return new Map();
    const docs = await this.store.collection<VoteDoc>(VOTES).find({ _id: { $in: targetIds.map((id) => voteDocId(targetType, id, voterId)) } });
    return new Map(docs.map((doc) => [doc.target_id, doc.value]));
  }

  /** The upvoters of a post or comment (likes lists, §0.5 Voter), oldest vote first. */
  async likes(targetType: VoteTargetType, targetId: string): Promise<VoterView[]> {
    const votes = await this.store.collection<VoteDoc>(VOTES).find({ target_type: targetType, target_id: String(targetId), value: 1 });
    votes.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
    const users = await this.accounts.usersByIds(votes.map((v) => v.voter_id));
    return votes.map((v) => {
      const user = users.get(v.voter_id);
      return { user_id: v.voter_id, name: escapeHtml(user?.display_name || user?.username || ''), profilePic: user?.avatar_url ?? null };
    });
  }

  // ---- comments ----

  commentDoc(commentId: string): Promise<CommentDoc | null> {
    return this.store.collection<CommentDoc>(COMMENTS).findOne({ _id: String(commentId) });
  }

  /** A post's live comments, flat: oldest first (`new`) or highest score first (`top`). */
  async commentsOf(postId: string, sort: 'new' | 'top'): Promise<(CommentView & { parent_comment_id: string | 0; comment: string; name: string; creation_date: string })[]> {
    const docs = await this.store.collection<CommentDoc>(COMMENTS).find({ post_id: String(postId), visible: true });
    const byAge = (a: CommentDoc, b: CommentDoc): number => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a._id < b._id ? -1 : 1);
    docs.sort(sort === 'top' ? (a, b) => b.score - a.score || byAge(a, b) : byAge);
    const authors = await this.accounts.usersByIds(docs.map((d) => d.author_id));
    return docs.map((doc) => {
      const view = toCommentView(doc, authors.get(doc.author_id));
      return { ...view, parent_comment_id: doc.parent_id ?? 0, comment: view.content, name: view.author?.display_name ?? '', creation_date: doc.created_at };
    });
  }

  async shapeComment(comment: CommentSource): Promise<CommentView> {
    const authors = await this.accounts.usersByIds([comment.author_id]);
    return toCommentView(comment, authors.get(comment.author_id));
  }

  // ---- communities ----

  /** A community by its name (case-insensitive) or its id. */
  async community(nameOrId: string): Promise<CommunityDoc | null> {
    const key = String(nameOrId).trim();
    const communities = this.store.collection<CommunityDoc>(COMMUNITIES);
    return (await communities.findOne({ name_key: key.toLowerCase() })) ?? (await communities.findOne({ _id: key }));
  }

  async communityOr404(nameOrId: string): Promise<CommunityDoc> {
    const doc = await this.community(nameOrId);
    if (!doc) throw new DomainError('not_found', 'Community not found');
    return doc;
  }

  async membership(communityId: string, userId: string): Promise<CommunityMemberDoc | null> {
    return this.store.collection<CommunityMemberDoc>(COMMUNITY_MEMBERS).findOne({ _id: memberDocId(communityId, userId) });
  }

  async communityView(nameOrId: string, viewerId: string | null): Promise<CommunityView> {
    const doc = await this.communityOr404(nameOrId);
    const view = toCommunityView(doc);
    if (viewerId) {
      const member = await this.membership(doc.id, viewerId);
      view.is_member = member !== null;
      view.role = member?.role ?? null;
    }
    return view;
  }

  /** Communities, most members first (§6). */
  async communitiesPage(page: Page): Promise<{ items: CommunityView[]; total: number }> {
    const communities = this.store.collection<CommunityDoc>(COMMUNITIES);
    const sort: SortSpec = { member_count: -1, created_at: 1 };
    const [docs, total] = await Promise.all([communities.find({}, { sort, skip: page.offset, limit: page.limit }), communities.countDocuments({})]);
    return { items: docs.map(toCommunityView), total };
  }

  async membersPage(communityId: string, page: Page): Promise<{ items: { user: UserView | null; role: string }[]; total: number }> {
    const members = this.store.collection<CommunityMemberDoc>(COMMUNITY_MEMBERS);
    const all = await members.find({ community_id: communityId });
    all.sort((a, b) => (a.joined_at < b.joined_at ? -1 : a.joined_at > b.joined_at ? 1 : a._id < b._id ? -1 : 1));
    const slice = all.slice(page.offset, page.offset + page.limit);
    const users = await this.accounts.usersByIds(slice.map((m) => m.user_id));
    return {
      items: slice.map((m) => {
        const user = users.get(m.user_id);
        return { user: user ? toUserView(user, false) : null, role: m.role };
      }),
      total: all.length,
    };
  }

  /** The communities a user belongs to (ids). */
  async communitiesOf(userId: string): Promise<string[]> {
    const docs = await this.store.collection<CommunityMemberDoc>(COMMUNITY_MEMBERS).find({ user_id: String(userId) });
    return docs.map((d) => d.community_id);
  }

  // ---- reports ----

  async reportsPage(status: string | null, page: Page): Promise<{ items: ReportDoc[]; total: number }> {
    const reports = this.store.collection<ReportDoc>(REPORTS);
    const filter: Filter = status ? { status } : {};
    const [docs, total] = await Promise.all([reports.find(filter, { sort: { created_at: -1 }, skip: page.offset, limit: page.limit }), reports.countDocuments(filter)]);
    return { items: docs.map(reportView), total };
  }

  async report(reportId: string): Promise<ReportDoc> {
    const doc = await this.store.collection<ReportDoc>(REPORTS).findOne({ _id: String(reportId) });
    if (!doc) throw new DomainError('not_found', 'Report not found');
    return reportView(doc);
  }
}

/**
 * A case-insensitive substring match of `q` taken literally: every regular
 * expression metacharacter is escaped, so the query is data, never a pattern
 * (both read stores evaluate `$regex`). Operators cannot reach the filter:
 * `q` is a string put under a fixed key.
 */
export function containsPattern(q: string): { $regex: string; $options: string } {
  return { $regex: q.replace(/[.*+?^${}()|[\]\\\/-]/g, '\\$&'), $options: 'i' };
}

/** The listed posts of the last 24 h (§21.1 trending): a range on the `listed, created_at` index. */
function trendingWindow(now: Date): Filter {
  return { listed: true, created_at: { $gte: new Date(now.getTime() - DAY_MS).toISOString() } };
}

function newestFirst(a: { created_at: string; _id: string }, b: { created_at: string; _id: string }): number {
  return a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a._id < b._id ? -1 : 1;
}

function reportView(doc: ReportDoc): ReportDoc {
  const { _id, _pos, ...rest } = doc as ReportDoc & { _pos?: number };
  void _pos;
  return { _id, ...rest, reason: escapeHtml(rest.reason), details: rest.details === null ? null : escapeHtml(rest.details) };
}
