/**
 * Command handlers of the encrypted backups (social-routes §19; the
 * semantics in docs/api.md, "Sync", the crypto in docs/security.md).
 *
 * A backup reads the caller's own data from the read models, seals it
 * (backup-crypto.ts), writes the file, then records BackupCreated with
 * metadata only. A restore re-applies what the backup holds and the caller's
 * data lacks, through the content and profile commands, each decided on its
 * own stream:
 * - a post or comment is re-published under its own id when that id is
 *   free on this node; when the author had deleted it, under the next id of
 *   a deterministic chain derived from the original id (`restoredContentId`),
 *   so a repeated or concurrent restore meets an existing stream (a
 *   conflict, skipped), never a duplicate; something deleted by moderation
 *   stays deleted; a comment left under a post its author deleted counts as
 *   missing and is restored onto the restored post;
 * - a vote is cast only where the caller has no vote on the target now
 *   (decided on the target's stream: idempotent);
 * - the profile fields are set back to the backup's where they differ.
 */
import { createHash } from 'node:crypto';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { commentDecider, type CommentState } from '../../aggregates/content/comment';
import { commentStreamId, postStreamId } from '../../aggregates/content/content.events';
import { postDecider, type PostState } from '../../aggregates/content/post';
import type { ProfileChanges, Role } from '../../aggregates/accounts/user.events';
import { DomainError } from '../../aggregates/shared/domain-error';
import { backupToRestore, type RestoreCounts, userBackupsDecider, userBackupsStreamId } from '../../aggregates/sync/user-backups';
import { CommandExecutor, type CommandContext } from '../common/command-executor';
import { KeyedMutex } from '../common/keyed-mutex';
import { randomHex } from '../common/random-ids';
import { PostComment, PublishPost } from '../content/content.commands';
import { UpdateProfile } from '../social/social.commands';
import { KDF_PARAMS, open, seal, sha256Hex } from './backup-crypto';
import { BackupFiles } from './backup-files';
import { CreateBackup, EraseUserBackups, RestoreBackup } from './sync.commands';
import { type BackupContent, SyncQueries } from './sync.queries';

export const BACKUP_FILE_MISSING = 'Backup file not found';
export const WRONG_PASSPHRASE = 'Invalid passphrase or corrupted backup';

/** How many times one post or comment can be deleted by its author and restored again. */
const MAX_GENERATIONS = 16;

/** The id of a restored post or comment: the original's for generation 0, then 20 hex characters derived from it. */
export const restoredContentId = (originalId: string, generation: number): string =>
  generation === 0 ? originalId : createHash('sha256').update(`${originalId}/restored/${generation}`).digest('hex').slice(0, 20);

/** Where a backed-up item stands on this node: live under an id, restorable at a free id, or not to be restored (deleted by moderation). */
type Slot<S> = { live: string; state: S } | { free: string } | null;

/** A refusal of one item's command (conflict: a concurrent restore took the id; not found, locked, ...): that item is skipped. */
const skipped = (error: unknown): boolean => error instanceof DomainError && ['conflict', 'not_found', 'forbidden', 'invalid', 'gone'].includes(error.kind);

@CommandHandler(CreateBackup)
export class CreateBackupHandler implements ICommandHandler<CreateBackup> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly queries: SyncQueries,
    private readonly files: BackupFiles,
  ) {}

  async execute({ payload: { userId, passphrase }, context }: CreateBackup): Promise<{ backup_id: string; content_hash: string; size_bytes: number }> {
    const backupId = `bk_${randomHex(12)}`;
    const content = await this.queries.contentOf(userId);
    const file = await seal(Buffer.from(JSON.stringify(content), 'utf8'), passphrase, { userId, backupId });
    await this.files.write(userId, backupId, file);
    const metadata = {
      backup_id: backupId,
      user_id: userId,
      content_hash: sha256Hex(file),
      size_bytes: file.length,
      cipher: 'aes-256-gcm' as const,
      kdf: 'scrypt' as const,
      kdf_params: KDF_PARAMS,
      counts: { profile: content.profile !== null, posts: content.posts.length, comments: content.comments.length, votes: content.votes.length },
    };
    await this.executor.execute(userBackupsDecider, userBackupsStreamId(userId), { kind: 'record', metadata }, context);
    return { backup_id: backupId, content_hash: metadata.content_hash, size_bytes: metadata.size_bytes };
  }
}

@CommandHandler(RestoreBackup)
export class RestoreBackupHandler implements ICommandHandler<RestoreBackup> {
  /** one restore of a user at a time in this process (across processes the content streams' revisions still prevent duplicates) */
  private readonly perUser = new KeyedMutex();

  constructor(
    private readonly executor: CommandExecutor,
    private readonly commands: CommandBus,
    private readonly queries: SyncQueries,
    private readonly files: BackupFiles,
  ) {}

  execute({ payload, context }: RestoreBackup): Promise<RestoreCounts> {
    return this.perUser.run(payload.userId, () => this.restore(payload, context));
  }

  private async restore({ userId, role, passphrase, backupId }: RestoreBackup['payload'], context: CommandContext): Promise<RestoreCounts> {
    const stream = userBackupsStreamId(userId);
    const { state } = await this.executor.load(userBackupsDecider, stream);
    const backup = backupToRestore(state, backupId);
    const file = await this.files.read(userId, backup.backup_id);
    if (!file) throw new DomainError('invalid', BACKUP_FILE_MISSING);
    const plaintext = await open(file, passphrase, { userId, backupId: backup.backup_id }, backup.kdf_params);
    if (!plaintext) throw new DomainError('invalid', WRONG_PASSPHRASE);
    const content = JSON.parse(plaintext.toString('utf8')) as BackupContent;
    if (content.user_id !== userId) throw new DomainError('invalid', WRONG_PASSPHRASE);
    const restored: RestoreCounts = {
      profile: await this.restoreProfile(content, userId, context),
      posts: await this.restorePosts(content, userId, context),
      comments: await this.restoreComments(content, userId, role, context),
      votes: await this.restoreVotes(content, userId, context),
    };
    await this.executor.execute(userBackupsDecider, stream, { kind: 'recordRestore', userId, backupId: backup.backup_id, restored }, context);
    return restored;
  }

  private async restoreProfile(content: BackupContent, userId: string, context: CommandContext): Promise<boolean> {
    const current = await this.queries.profileOf(userId);
    if (!content.profile || !current) return false;
    const changes: ProfileChanges = {};
    if (content.profile.display_name !== current.display_name) changes.display_name = content.profile.display_name;
    if (content.profile.bio !== current.bio) changes.bio = content.profile.bio;
    if (content.profile.avatar_url !== current.avatar_url) changes.avatar_url = content.profile.avatar_url;
    if (Object.keys(changes).length === 0) return false;
    await this.commands.execute(new UpdateProfile({ userId, changes, updatedBy: userId }, context));
    return true;
  }

  /** Walks an item's chain of ids: the first live one, else the first free one after deletions by the author; null past a deletion by moderation. */
  private async slot<S extends PostState | CommentState>(originalId: string, load: (id: string) => Promise<S>, stands: (state: S) => Promise<boolean> = async () => true): Promise<Slot<S>> {
    for (let generation = 0; generation < MAX_GENERATIONS; generation++) {
      const id = restoredContentId(originalId, generation);
      const state = await load(id);
      if (state.status === 'none') return { free: id };
      if (state.status !== 'deleted') {
        if (await stands(state)) return { live: id, state };
        continue;
      }
      if (state.deletedBy === 'moderation') return null;
    }
    return null;
  }

  private postSlot(originalId: string): Promise<Slot<PostState>> {
    return this.slot(originalId, async (id) => (await this.executor.load(postDecider, postStreamId(id))).state);
  }

  /** A comment stands while its post is live: one left under a post its author deleted is restored with the post. */
  private commentSlot(originalId: string): Promise<Slot<CommentState>> {
    return this.slot(
      originalId,
      async (id) => (await this.executor.load(commentDecider, commentStreamId(id))).state,
      async (state) => state.status === 'posted' && (await this.executor.load(postDecider, postStreamId(state.comment.post_id))).state.status === 'published',
    );
  }

  /** Runs one item's command; a refusal skips the item (0), anything else fails the restore. */
  private async attempt(run: () => Promise<unknown>): Promise<number> {
    try {
      await run();
      return 1;
    } catch (error) {
      if (skipped(error)) return 0;
      throw error;
    }
  }

  private async restorePosts(content: BackupContent, userId: string, context: CommandContext): Promise<number> {
    let count = 0;
    for (const post of content.posts) {
      if (post.author_id !== userId) continue;
      const slot = await this.postSlot(post.id);
      if (!slot || 'live' in slot) continue;
      const { id: _id, author_id: _author, author_type: _type, community_id, community_private: _private, created_at: _at, title, content: text, content_type, ...fields } = post;
      count += await this.attempt(() =>
        this.commands.execute(new PublishPost({ postId: slot.free, authorId: userId, title, content: text, contentType: content_type, community: community_id, fields }, context)),
      );
    }
    return count;
  }

  private async restoreComments(content: BackupContent, userId: string, role: Role, context: CommandContext): Promise<number> {
    let count = 0;
    // parents before their replies: a reply restored after its own parent was restored hangs under it
    for (const comment of [...content.comments].sort((a, b) => a.depth - b.depth)) {
      const slot = await this.commentSlot(comment.id);
      if (!slot || 'live' in slot) continue;
      const post = await this.postSlot(comment.post_id);
      if (!post || !('live' in post)) continue;
      let parentId: string | null = null;
      if (comment.parent_id) {
        const parent = await this.commentSlot(comment.parent_id);
        // under its parent when the parent is live on the same post; else at the top level
        if (parent && 'live' in parent && parent.state.status === 'posted' && parent.state.comment.post_id === post.live) parentId = parent.live;
      }
      count += await this.attempt(() =>
        this.commands.execute(new PostComment({ commentId: slot.free, authorId: userId, role, content: comment.content, postId: post.live, parentId, checkLock: true }, context)),
      );
    }
    return count;
  }

  private async restoreVotes(content: BackupContent, userId: string, context: CommandContext): Promise<number> {
    let count = 0;
    for (const vote of content.votes) {
      const command = { kind: 'vote' as const, voterId: userId, direction: vote.value === 1 ? ('up' as const) : ('down' as const), onlyIfNone: true };
      count += await this.attempt(async () => {
        const outcome =
          vote.target_type === 'post'
            ? await this.executor.execute(postDecider, postStreamId(vote.target_id), command, context)
            : await this.executor.execute(commentDecider, commentStreamId(vote.target_id), command, context);
        if (outcome.events.length === 0) throw new DomainError('conflict', 'already voted');
      });
    }
    return count;
  }
}

/**
 * An erased account leaves no backup behind: the metadata is forgotten
 * (BackupsErased), then the files go. A repeat (a redelivered erasure, a
 * crash between the two) records nothing more and deletes what is left.
 */
@CommandHandler(EraseUserBackups)
export class EraseUserBackupsHandler implements ICommandHandler<EraseUserBackups> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly files: BackupFiles,
  ) {}

  async execute({ payload: { userId }, context }: EraseUserBackups): Promise<void> {
    await this.executor.execute(userBackupsDecider, userBackupsStreamId(userId), { kind: 'erase', userId }, context);
    await this.files.eraseAll(userId);
  }
}
