/**
 * Reads of the social accounts context: the `users`, `follows` and
 * `notifications` read models, and the other social contexts' collections
 * (`posts`, `comments`, `skill_badges`) for the per-user read routes, each
 * tolerant of a collection nobody has written yet.
 */
import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '../../aggregates/shared/domain-error';
import { READ_STORE, type Doc, type Filter, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { USERS, type UserDoc } from '../../projections/accounts/users.projection';
import { FOLLOWS, type FollowDoc, followId } from '../../projections/social/follows.projection';
import { NOTIFICATIONS, type NotificationDoc } from '../../projections/social/notifications.projection';
import type { NotificationView } from '../../projections/social/notification-rules';
import { escapeHtml } from '../common/html-escape';
import type { Page } from '../common/paging';
import { AccountsQueries, toUserView, type UserView } from '../accounts/accounts.queries';

export const USER_NOT_FOUND = 'User not found';
/** The other social contexts' read models (social-split.md: shared names). */
const POSTS = 'posts';
const COMMENTS = 'comments';
const SKILL_BADGES = 'skill_badges';

export type AdminUserView = UserView & { is_banned: boolean; email: string | null };
export interface Listing<T> {
  items: T[];
  total: number;
}

/** A stored document without the store's own fields. */
function plain(doc: Doc): Record<string, unknown> {
  const { _id, _pos, ...rest } = doc as Doc & { _pos?: number };
  return { id: _id, ...rest };
}

export const adminViewOf = (doc: UserDoc): AdminUserView => ({ ...toUserView(doc, false), is_banned: doc.is_banned, email: doc.email });

@Injectable()
export class SocialQueries {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    private readonly accounts: AccountsQueries,
  ) {}

  private users() {
    return this.store.collection<UserDoc>(USERS);
  }

  private async listing<T extends Doc>(collection: string, filter: Filter, sort: Record<string, 1 | -1>, page: Page): Promise<Listing<T>> {
    const docs = this.store.collection<T>(collection);
    const [items, total] = await Promise.all([docs.find(filter, { sort, skip: page.offset, limit: page.limit }), docs.countDocuments(filter)]);
    return { items, total };
  }

  /** A user by id, or by username; 404 `User not found`. */
  async user(idOrName: string): Promise<UserDoc> {
    const doc = (await this.accounts.userById(idOrName)) ?? (await this.accounts.userByUsername(idOrName));
    if (!doc) throw new DomainError('not_found', USER_NOT_FOUND);
    return doc;
  }

  /** GET /users: banned and erased accounts left out, highest karma first. */
  async listUsers(type: string | null, page: Page): Promise<Listing<UserView>> {
    const filter: Filter = { is_banned: { $ne: true }, anonymized_at: null, ...(type ? { user_type: type } : {}) };
    const { items, total } = await this.listing<UserDoc>(USERS, filter, { karma_score: -1, created_at: 1 }, page);
    return { items: items.map((doc) => toUserView(doc, false)), total };
  }

  async adminUsers(page: Page): Promise<Listing<AdminUserView>> {
    const { items, total } = await this.listing<UserDoc>(USERS, {}, { created_at: -1 }, page);
    return { items: items.map(adminViewOf), total };
  }

  async isFollowing(followerId: string, followeeId: string): Promise<boolean> {
    return (await this.store.collection<FollowDoc>(FOLLOWS).countDocuments({ _id: followId(followerId, followeeId), active: true })) > 0;
  }

  /** Who follows `userId` (`side: 'followers'`) or whom `userId` follows, newest follow first. */
  async followGraph(userId: string, side: 'followers' | 'following', page: Page): Promise<Listing<UserView>> {
    const [mine, theirs] = side === 'followers' ? (['followee_id', 'follower_id'] as const) : (['follower_id', 'followee_id'] as const);
    const { items, total } = await this.listing<FollowDoc>(FOLLOWS, { [mine]: userId, active: true }, { created_at: -1 }, page);
    const users = await this.accounts.usersByIds(items.map((edge) => edge[theirs]));
    return { items: items.flatMap((edge) => (users.has(edge[theirs]) ? [toUserView(users.get(edge[theirs])!, false)] : [])), total };
  }

  /** Every id on one side of the graph (the data export). */
  async followIds(userId: string, side: 'followers' | 'following'): Promise<string[]> {
    const [mine, theirs] = side === 'followers' ? (['followee_id', 'follower_id'] as const) : (['follower_id', 'followee_id'] as const);
    const edges = await this.store.collection<FollowDoc>(FOLLOWS).find({ [mine]: userId, active: true }, { sort: { created_at: 1 } });
    return edges.map((edge) => edge[theirs]);
  }

  async handleTaken(handle: string): Promise<boolean> {
    return (await this.users().countDocuments({ handle })) > 0;
  }

  /** The user's live posts, newest first, each with its author (§0.5 Post+author). */
  async postsOf(user: UserDoc, page: Page): Promise<Listing<Record<string, unknown>>> {
    const filter: Filter = { author_id: user.id, is_deleted: { $ne: true }, is_hidden: { $ne: true } };
    const { items, total } = await this.listing<Doc>(POSTS, filter, { created_at: -1 }, page);
    const author = toUserView(user, false);
    return { items: items.map((doc) => ({ ...escapedText(plain(doc)), author })), total };
  }

  async commentsOf(userId: string, page: Page): Promise<Listing<Record<string, unknown>>> {
    const filter: Filter = { author_id: userId, is_deleted: { $ne: true }, is_hidden: { $ne: true } };
    const { items, total } = await this.listing<Doc>(COMMENTS, filter, { created_at: -1 }, page);
    return { items: items.map((doc) => escapedText(plain(doc))), total };
  }

  /** Every post and comment of the user, as stored (the data export). */
  async contentOf(userId: string): Promise<{ posts: Record<string, unknown>[]; comments: Record<string, unknown>[] }> {
    const [posts, comments] = await Promise.all([
      this.store.collection(POSTS).find({ author_id: userId }, { sort: { created_at: 1 } }),
      this.store.collection(COMMENTS).find({ author_id: userId }, { sort: { created_at: 1 } }),
    ]);
    return { posts: posts.map(plain), comments: comments.map(plain) };
  }

  async skillsOf(userId: string): Promise<Record<string, unknown>[]> {
    const badges = await this.store.collection(SKILL_BADGES).find({ user_id: userId }, { sort: { awarded_at: 1 } });
    return badges.map((doc) => {
      const { id, skill_name, proficiency, usage_count, success_rate, badge_level, awarded_at } = plain(doc);
      return { id, skill_name: escapeHtml(String(skill_name ?? '')), proficiency, usage_count, success_rate, badge_level, awarded_at };
    });
  }

  async notifications(userId: string, unreadOnly: boolean, page: Page): Promise<Listing<NotificationView>> {
    const filter: Filter = { user_id: userId, ...(unreadOnly ? { is_read: false } : {}) };
    const { items, total } = await this.listing<NotificationDoc>(NOTIFICATIONS, filter, { created_at: -1, _id: -1 }, page);
    return { items: items.map(notificationView), total };
  }
}

export function notificationView(doc: NotificationDoc): NotificationView {
  return {
    id: doc.id,
    user_id: doc.user_id,
    type: doc.type,
    source_user_id: doc.source_user_id,
    target_type: doc.target_type,
    target_id: doc.target_id,
    message: escapeHtml(doc.message),
    is_read: doc.is_read,
    created_at: doc.created_at,
  };
}

/** User text of posts and comments, HTML-escaped on output (§0.1). */
function escapedText(doc: Record<string, unknown>): Record<string, unknown> {
  const out = { ...doc };
  for (const field of ['title', 'content']) if (typeof out[field] === 'string') out[field] = escapeHtml(out[field] as string);
  return out;
}
