/**
 * The peer network (social-routes §19): nodes announce themselves and
 * exchange the peers they know (node-signed, 10 a minute per IP: the `peers`
 * bucket, 429 beyond), anyone lists them, asks where a task is best served
 * (best-endpoint.ts) and reads the network's health. Replies are raw.
 */
import { Body, Controller, Get, HttpCode, Inject, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { Clock } from '../../infrastructure/clock';
import type { CommandContext } from '../common/command-executor';
import { QueryParam, Refusal, Reply } from '../common/openapi';
import { RateLimited } from '../common/rate-limits/rate-limits';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { CallingNode, NodeSigned } from '../integrity/node-signature.guard';
import { bestEndpoint, type EndpointNode, type KnownPeer, sourceOf, STALE_AFTER_MS } from './best-endpoint';
import { AnnouncePeer, LearnPeers } from './federation-sync.commands';
import { FederationSyncQueries } from './federation-sync.queries';
import { ANNOUNCE_REPLY, BEST_ENDPOINT_REPLY, bestEndpointReply, EXCHANGE_REPLY, PEERS_HEALTH_REPLY, PEERS_REPLY, type PeerView, peerView } from './federation-sync.replies';
import { PEER_TASKS, readExchange, readPeer, readTask } from './federation-sync.requests';

/** The tasks this node serves itself: chat (the offline engine or the configured LLM) */
export const LOCAL_TASKS = ['chat'];
const FRESH_MS = 5 * 60_000;

@Controller(socialPaths('peers'))
export class PeersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: FederationSyncQueries,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('announce')
  @HttpCode(200)
  // guards run from the decorator nearest the method: the signature first, so only verified node requests take a token
  @RateLimited('peers')
  @NodeSigned()
  @Reply(200, ANNOUNCE_REPLY, 'raw; `is_new` when this node did not know the announcer; `node_id` and `name` are this node’s')
  @Refusal(400, '`node_id` or `url` missing or malformed, or another field of the wrong type')
  @Refusal(403, '`node_id does not match the signing node`')
  @Refusal(429, '`Rate limit exceeded. Try again later.`: more than 10 announcements and exchanges a minute from one IP')
  async announce(@Body() body: unknown, @CallingNode() caller: string, @RequestContext() context: CommandContext): Promise<{ success: true; is_new: boolean; node_id: string; name: string }> {
    const peer = readPeer(body);
    if (peer.node_id !== caller) throw new DomainError('forbidden', 'node_id does not match the signing node');
    const { is_new } = await this.commands.execute(new AnnouncePeer({ peer }, { ...context, actor: `node:${caller}` }));
    return { success: true, is_new, node_id: this.config.nodeId, name: this.config.federation.brand };
  }

  @Post('exchange')
  @HttpCode(200)
  // guards run from the decorator nearest the method: the signature first, so only verified node requests take a token
  @RateLimited('peers')
  @NodeSigned()
  @Reply(200, EXCHANGE_REPLY, 'raw: the peers this node knows (the sender left out); the sender and the listed ones it did not know are recorded as learned')
  @Refusal(400, '`sender` without a valid `node_id` and `url`, or `peers` not an array of at most 100')
  @Refusal(403, '`sender.node_id does not match the signing node`')
  @Refusal(429, '`Rate limit exceeded. Try again later.`: more than 10 announcements and exchanges a minute from one IP')
  async exchange(@Body() body: unknown, @CallingNode() caller: string, @RequestContext() context: CommandContext): Promise<{ success: true; node_id: string; peers: PeerView[] }> {
    const { sender, peers } = readExchange(body);
    if (sender.nodeId !== caller) throw new DomainError('forbidden', 'sender.node_id does not match the signing node');
    const as = { ...context, actor: `node:${caller}` };
    // the sender too, when not known: a bare description never overwrites what a node announced of itself
    const senderPeer = { node_id: caller, url: sender.url, name: null, tier: 'flat', has_gpu: false, vram_free_gb: 0, tasks: [] };
    await this.commands.execute(new LearnPeers({ peers: [senderPeer, ...peers.filter((p) => p.node_id !== caller)], from: caller }, as));
    const known = (await this.queries.peers()).map(peerView).filter((p) => p.node_id !== caller);
    return { success: true, node_id: this.config.nodeId, peers: known };
  }

  @Get()
  @Reply(200, PEERS_REPLY, 'raw: the peers known, seen last first (at most 500)')
  async list(): Promise<{ success: true; node_id: string; peers: PeerView[]; count: number }> {
    const peers = (await this.queries.peers()).map(peerView);
    return { success: true, node_id: this.config.nodeId, peers, count: peers.length };
  }

  @Get('best-endpoint')
  @QueryParam('task', { enum: [...PEER_TASKS], default: 'chat' })
  @Reply(200, BEST_ENDPOINT_REPLY, 'raw: this node when it serves the task, else the best-scored fresh peer (LAN 800, regional 400-500, cloud 200, + capability and freshness), else this node')
  @Refusal(400, 'a task other than chat, stt, tts, vlm')
  async best(@Query() query: Record<string, unknown>) {
    const task = readTask(query);
    const peers: KnownPeer[] = (await this.queries.peers()).map(peerView).filter((p): p is PeerView & { last_seen_at: string } => p.last_seen_at !== null);
    return bestEndpointReply(bestEndpoint({ task, local: this.local(), peers, parentUrl: this.config.federation.sync.parentUrl, now: this.clock.now() }));
  }

  @Get('health')
  @Reply(200, PEERS_HEALTH_REPLY, 'raw: how many peers are known and fresh, by source; follows; the sync queue')
  async health() {
    const now = this.clock.now().getTime();
    const peers = (await this.queries.peers()).map(peerView);
    const age = (p: PeerView) => (p.last_seen_at ? now - Date.parse(p.last_seen_at) : Infinity);
    const bySource = { lan: 0, regional: 0, cloud: 0 };
    for (const p of peers) bySource[sourceOf(p)]++;
    const [following, followers, counts, stats] = await Promise.all([
      this.queries.following(),
      this.queries.followers(),
      this.queries.counts(this.config.nodeId),
      this.queries.stats(this.config.nodeId),
    ]);
    const { sync } = this.config.federation;
    return {
      success: true as const,
      node_id: this.config.nodeId,
      tier: this.config.nodeTier,
      peers: { total: peers.length, fresh: peers.filter((p) => age(p) <= FRESH_MS).length, stale: peers.filter((p) => age(p) > STALE_AFTER_MS).length, by_source: bySource },
      following: following.length,
      followers: followers.length,
      sync: { parent_url: sync.parentUrl, sender_running: sync.parentUrl !== null && sync.intervalMs > 0, counts, last_sync_at: stats?.last_sync_at ?? null },
    };
  }

  private local(): EndpointNode {
    return { node_id: this.config.nodeId, url: this.config.federation.publicUrl, tier: this.config.nodeTier, has_gpu: false, vram_free_gb: 0, tasks: LOCAL_TASKS };
  }
}
