/**
 * Federation between peer nodes (social-routes §19): the inbox (a peer
 * pushes a post, node-signed), the outbox (this node's recent posts, each
 * signed by this node's key), following peers (admins), pulling a followed
 * or any peer's outbox through the SSRF guard and storing the posts whose
 * signatures verify against the peer's registered key, the federated feed,
 * follower notifications (node-signed), who follows whom, and the peers'
 * contribution. Replies are raw (no envelope) where §19 says so.
 */
import { Body, Controller, Get, HttpCode, Inject, Logger, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { Clock } from '../../infrastructure/clock';
import { NodeKey } from '../../infrastructure/node-identity/node-key';
import type { NodeKeyDirectory } from '../../infrastructure/node-identity/signed-request';
import { Authenticated, OptionalViewer } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type PagedEnvelope, paged } from '../common/envelope';
import { signValue, verifyNodeSignature } from '../common/node-signing-key';
import { QueryParam, Refusal, Reply } from '../common/openapi';
import { pageQuery, pageQuerySchemas } from '../common/paging';
import { guardedGet } from '../common/public-address';
import { postSignedToPeer } from '../common/signed-peer-request';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { CallingNode, NODE_KEY_DIRECTORY, NodeSigned } from '../integrity/node-signature.guard';
import { AddFollower, FollowPeer, LearnPeers, ReceiveFederatedPost, UnfollowPeer } from './federation-sync.commands';
import { FederationSyncQueries } from './federation-sync.queries';
import {
  CONTRIBUTION_REPLY,
  FEDERATED_FEED,
  type FederatedPostView,
  federatedPostView,
  FOLLOW_REPLY,
  FOLLOWERS_REPLY,
  FOLLOWING_REPLY,
  INBOX_REPLY,
  NODE_ID_REPLY,
  type OutboxPost,
  outboxPost,
  OUTBOX_REPLY,
  PULL_REPLY,
  UNFOLLOW_REPLY,
} from './federation-sync.replies';
import { readFederatedPost, readFollow, readFollowNotification, readPull, readUnfollow } from './federation-sync.requests';

const FEED_PAGE = { defaultLimit: 20, cap: 100 };
const OUTBOX_PAGE = { defaultLimit: 20, cap: 100 };
const SOCIAL = '/api/social';
/** the most bytes of a peer's outbox read */
const MAX_OUTBOX_BYTES = 5 * 1024 * 1024;

/** What a post of an outbox is signed as: the origin node and the post without its signature. */
export const outboxSigned = (nodeId: string, post: OutboxPost) => ({ node_id: nodeId, post });

@Controller(socialPaths('federation'))
export class FederationNetworkController {
  private readonly logger = new Logger('Federation');

  constructor(
    private readonly commands: CommandBus,
    private readonly queries: FederationSyncQueries,
    private readonly key: NodeKey,
    private readonly clock: Clock,
    @Inject(NODE_KEY_DIRECTORY) private readonly keys: NodeKeyDirectory,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('inbox')
  @HttpCode(200)
  @NodeSigned()
  @Reply(200, INBOX_REPLY, 'raw; `created` false when the post had arrived before')
  @Refusal(400, 'no post id, or neither title nor content, or a field of the wrong type or too long')
  async inbox(@Body() body: unknown, @CallingNode() caller: string, @RequestContext() context: CommandContext): Promise<{ success: true; federated_post_id: string; created: boolean }> {
    const post = readFederatedPost(body, caller);
    const result = await this.commands.execute(new ReceiveFederatedPost({ post, via: 'inbox' }, { ...context, actor: `node:${caller}` }));
    return { success: true, ...result };
  }

  @Get('outbox')
  @Reply(200, OUTBOX_REPLY, 'raw: recent listed local posts, newest first, each signed by this node (text as written; escape on output)')
  @QueryParam('limit', pageQuerySchemas(OUTBOX_PAGE).limit)
  async outbox(@Query() query: Record<string, unknown>) {
    const { limit } = pageQuery({ limit: query.limit }, OUTBOX_PAGE);
    const base = this.config.federation.publicUrl;
    const posts = (await this.queries.outbox(limit)).map((doc) => {
      const post = outboxPost(doc, base);
      return { ...post, signature: signValue(this.key, outboxSigned(this.config.nodeId, post)) };
    });
    return { success: true as const, node_id: this.config.nodeId, url: base, name: this.config.federation.brand, public_key: this.key.publicKeyHex, posts };
  }

  @Post('follow')
  @HttpCode(200)
  @Authenticated('admin')
  @Reply(200, FOLLOW_REPLY, 'raw; `created` false when already followed at this URL; `notified` whether the peer took the follow notification')
  @Refusal(400, '`peer_node_id` or `peer_url` missing or malformed, or the peer is this node')
  async follow(@Body() body: unknown, @CurrentUser() admin: AuthUser, @RequestContext() context: CommandContext): Promise<{ success: true; created: boolean; notified: boolean }> {
    const { peerNodeId, peerUrl } = readFollow(body);
    if (peerNodeId === this.config.nodeId) throw new DomainError('invalid', 'A node cannot follow itself');
    const { created } = await this.commands.execute(new FollowPeer({ peerNodeId, peerUrl, by: admin.id }, context));
    return { success: true, created, notified: await this.notifyFollowed(peerUrl) };
  }

  @Post('unfollow')
  @HttpCode(200)
  @Authenticated('admin')
  @Reply(200, UNFOLLOW_REPLY, 'raw; unfollowing a node not followed succeeds too')
  @Refusal(400, '`peer_node_id` missing or malformed')
  async unfollow(@Body() body: unknown, @CurrentUser() admin: AuthUser, @RequestContext() context: CommandContext): Promise<{ success: true }> {
    const { peerNodeId } = readUnfollow(body);
    await this.commands.execute(new UnfollowPeer({ peerNodeId, by: admin.id }, context));
    return { success: true };
  }

  @Get('feed')
  @Reply(200, FEDERATED_FEED, 'the posts received from other nodes, newest first, text escaped')
  @QueryParam('limit', pageQuerySchemas(FEED_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(FEED_PAGE).offset)
  @Refusal(400, 'a limit or offset that is not a whole number')
  async feed(@Query() query: Record<string, unknown>): Promise<PagedEnvelope<FederatedPostView>> {
    const page = pageQuery(query, FEED_PAGE);
    const { items, total } = await this.queries.feed(page);
    return paged(items.map(federatedPostView), total, page);
  }

  @Post('pull')
  @HttpCode(200)
  @Authenticated('admin')
  @Reply(200, PULL_REPLY, 'raw; `new_posts` stored now, `rejected` posts whose signature did not verify or that were malformed')
  @Refusal(400, '`peer_url` missing or malformed, `limit` not 1-100, the outbox unreachable or not an outbox, or its node not registered here (`Peer node is not registered`)')
  async pull(@Body() body: unknown, @RequestContext() context: CommandContext): Promise<{ success: true; new_posts: number; rejected: number }> {
    const { peerUrl, limit } = readPull(body);
    const outbox = await this.fetchOutbox(peerUrl, limit);
    const publicKey = await this.keys.publicKeyOf(outbox.node_id);
    if (!publicKey) throw new DomainError('invalid', 'Peer node is not registered');
    let created = 0;
    let rejected = 0;
    for (const entry of outbox.posts) {
      const { signature, ...post } = (entry ?? {}) as OutboxPost & { signature?: unknown };
      if (typeof signature !== 'string' || !verifyNodeSignature(publicKey, outboxSigned(outbox.node_id, post), signature)) {
        rejected++;
        continue;
      }
      let fields;
      try {
        fields = readFederatedPost(post, outbox.node_id, signature);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        rejected++;
        continue;
      }
      const result = await this.commands.execute(new ReceiveFederatedPost({ post: fields, via: 'pull' }, context));
      if (result.created) created++;
    }
    return { success: true, new_posts: created, rejected };
  }

  @Post('follow-notification')
  @HttpCode(200)
  @NodeSigned()
  @Reply(200, NODE_ID_REPLY, 'raw: this node’s id; the follower is recorded and added as a peer')
  @Refusal(400, '`follower_node_id` or `follower_url` missing or malformed')
  @Refusal(403, '`follower_node_id does not match the signing node`')
  async followNotification(@Body() body: unknown, @CallingNode() caller: string, @RequestContext() context: CommandContext): Promise<{ success: true; node_id: string }> {
    const { followerNodeId, followerUrl } = readFollowNotification(body);
    if (followerNodeId !== caller) throw new DomainError('forbidden', 'follower_node_id does not match the signing node');
    const as = { ...context, actor: `node:${caller}` };
    await this.commands.execute(new AddFollower({ followerNodeId, followerUrl }, as));
    // as a peer when not known yet: a bare description never overwrites what the node announced of itself
    await this.commands.execute(new LearnPeers({ peers: [{ node_id: followerNodeId, url: followerUrl, name: null, tier: 'flat', has_gpu: false, vram_free_gb: 0, tasks: [] }], from: caller }, as));
    return { success: true, node_id: this.config.nodeId };
  }

  @Get('following')
  @Reply(200, FOLLOWING_REPLY, 'raw')
  async following() {
    const data = (await this.queries.following()).map((d) => ({ peer_node_id: d._id, peer_url: d.peer_url, followed_at: d.followed_at }));
    return { success: true as const, data, count: data.length };
  }

  @Get('followers')
  @Reply(200, FOLLOWERS_REPLY, 'raw')
  async followers() {
    const data = (await this.queries.followers()).map((d) => ({ follower_node_id: d._id, follower_url: d.follower_url, added_at: d.added_at }));
    return { success: true as const, data, count: data.length };
  }

  @Get('contribution')
  @OptionalViewer()
  @Reply(200, CONTRIBUTION_REPLY, 'up to 50 peers seen in the last 7 days, highest contribution (posts shared + sync items applied here) first')
  async contribution() {
    const docs = await this.queries.contribution(this.clock.now());
    return {
      success: true as const,
      data: docs.map((d) => ({
        node_id: d._id,
        name: d.name ?? null,
        url: d.url ?? null,
        tier: d.tier ?? 'flat',
        posts_shared: d.posts_shared ?? 0,
        items_synced: d.items_synced ?? 0,
        contribution_score: d.contribution_score,
        last_seen_at: d.last_seen_at ?? null,
      })),
    };
  }

  /** GET <peer>/api/social/federation/outbox through the SSRF guard; 400 saying why when it cannot be read. */
  private async fetchOutbox(peerUrl: string, limit: number): Promise<{ node_id: string; posts: unknown[] }> {
    let text: string;
    try {
      text = await guardedGet(new URL(`${peerUrl}${SOCIAL}/federation/outbox?limit=${limit}`), {
        timeoutMs: this.config.federation.sync.timeoutMs,
        allowPrivate: this.config.federation.allowPrivatePeers,
        maxBytes: MAX_OUTBOX_BYTES,
        accept: 'application/json',
      });
    } catch (error) {
      throw new DomainError('invalid', `Could not read the peer's outbox: ${error instanceof Error ? error.message : String(error)}`);
    }
    let parsed: { node_id?: unknown; posts?: unknown };
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      throw new DomainError('invalid', 'The peer did not answer with an outbox');
    }
    if (typeof parsed?.node_id !== 'string' || !Array.isArray(parsed.posts)) throw new DomainError('invalid', 'The peer did not answer with an outbox');
    return { node_id: parsed.node_id, posts: parsed.posts.slice(0, limit) };
  }

  /** Tells the followed peer (node-signed POST through the SSRF guard); whether it took it. A failure does not undo the follow. */
  private async notifyFollowed(peerUrl: string): Promise<boolean> {
    try {
      await postSignedToPeer(this.key, this.config.nodeId, peerUrl, `${SOCIAL}/federation/follow-notification`, { follower_node_id: this.config.nodeId, follower_url: this.config.federation.publicUrl }, {
        timeoutMs: this.config.federation.sync.timeoutMs,
        allowPrivate: this.config.federation.allowPrivatePeers,
        maxBytes: 64 * 1024,
      });
      return true;
    } catch (error) {
      this.logger.warn(`follow notification to ${peerUrl} failed: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  }
}
