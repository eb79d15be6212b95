/** Reads of the sync context (social-routes §19): a user's active device bindings and backup metadata. */
import { Inject, Injectable } from '@nestjs/common';
import type { PostFields, PostPlacement } from '../../aggregates/content/content.events';
import { postFields } from '../../aggregates/content/post';
import type { DeviceBinding } from '../../aggregates/sync/device-binding';
import type { BackupMetadata } from '../../aggregates/sync/user-backups';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { USERS, type UserDoc } from '../../projections/accounts/users.projection';
import { COMMENTS, type CommentDoc } from '../../projections/content/comments.projection';
import { POSTS, type PostDoc } from '../../projections/content/posts.projection';
import { VOTES, type VoteDoc, type VoteTargetType } from '../../projections/content/votes.projection';
import { BACKUPS, type BackupDoc } from '../../projections/sync/backups.projection';
import { DEVICE_BINDINGS, type DeviceBindingDoc } from '../../projections/sync/device-bindings.projection';

/** A user has at most this many of either listed (newest first). */
const LIST_CAP = 500;

/** How many of each kind a backup holds at most: the most recent ones. */
export const BACKUP_CAP = 10_000;

/** What a backup holds (the plaintext, before encryption): the caller's own data only. */
export interface BackupContent {
  format: 1;
  user_id: string;
  profile: { display_name: string; bio: string; avatar_url: string | null } | null;
  /** the caller's posts that are not deleted, as published (raw text, not HTML-escaped) */
  posts: Array<PostPlacement & PostFields & { id: string; created_at: string }>;
  /** the caller's comments that are not deleted */
  comments: Array<{ id: string; post_id: string; parent_id: string | null; depth: number; content: string; created_at: string }>;
  /** the caller's current votes (up 1, down -1) */
  votes: Array<{ target_type: VoteTargetType; target_id: string; value: 1 | -1 }>;
}

export type BackupView = BackupMetadata & { restore_count: number; last_restored_at: string | null };

@Injectable()
export class SyncQueries {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  /** GET /sync/devices: the user's active bindings, most recently linked first. */
  async activeDevices(userId: string): Promise<DeviceBinding[]> {
    const docs = await this.store.collection<DeviceBindingDoc>(DEVICE_BINDINGS).find({ user_id: userId, is_active: true }, { sort: { linked_at: -1 }, limit: LIST_CAP });
    return docs.map(({ _id, _pos, ...binding }) => binding as DeviceBinding);
  }

  /** The caller's profile, live posts, live comments and current votes, from the read models. */
  async contentOf(userId: string): Promise<BackupContent> {
    const [profile, posts, comments, votes] = await Promise.all([
      this.profileOf(userId),
      this.store.collection<PostDoc>(POSTS).find({ author_id: userId, is_deleted: false }, { sort: { created_at: -1 }, limit: BACKUP_CAP }),
      this.store.collection<CommentDoc>(COMMENTS).find({ author_id: userId, is_deleted: false }, { sort: { created_at: -1 }, limit: BACKUP_CAP }),
      this.store.collection<VoteDoc>(VOTES).find({ voter_id: userId, value: { $in: [1, -1] } }, { sort: { at: -1 }, limit: BACKUP_CAP }),
    ]);
    return {
      format: 1,
      user_id: userId,
      profile,
      posts: posts.map((post) => ({
        id: post.id,
        created_at: post.created_at,
        author_id: post.author_id,
        author_type: post.author_type,
        community_id: post.community_id,
        community_private: post.community_private,
        ...postFields(post.title, post.content, post.content_type, {
          code_language: post.code_language,
          recipe_ref: post.recipe_ref,
          media_urls: post.media_urls,
          link_url: post.link_url,
          source_channel: post.source_channel,
          intent_category: post.intent_category,
          hypothesis: post.hypothesis,
          expected_outcome: post.expected_outcome,
          is_thought_experiment: post.is_thought_experiment,
          dynamic_layout: post.dynamic_layout,
        }),
      })),
      comments: comments.map(({ id, post_id, parent_id, depth, content, created_at }) => ({ id, post_id, parent_id, depth, content, created_at })),
      votes: votes.map(({ target_type, target_id, value }) => ({ target_type, target_id, value: value === 1 ? 1 : -1 })),
    };
  }

  /** The profile fields a backup keeps, or null without a user. */
  async profileOf(userId: string): Promise<BackupContent['profile']> {
    const user = await this.store.collection<UserDoc>(USERS).findOne({ _id: userId });
    return user ? { display_name: user.display_name, bio: user.bio, avatar_url: user.avatar_url } : null;
  }

  /** GET /sync/backup/metadata: the user's backups, newest first. */
  async backups(userId: string): Promise<BackupView[]> {
    const docs = await this.store.collection<BackupDoc>(BACKUPS).find({ user_id: userId }, { sort: { created_at: -1 }, limit: LIST_CAP });
    return docs.map(({ _id, _pos, ...backup }) => backup as BackupView);
  }
}
