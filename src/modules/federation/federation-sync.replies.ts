/** Reply shapes of the §19 sync, federation and peer routes: builders from read models, and their OpenAPI schemas. */
import type { BestEndpoint } from './best-endpoint';
import { escapeHtml } from '../common/html-escape';
import { bool, int, list, num, obj, oneOf, orNull, str } from '../common/openapi';
import type { FederatedPostDoc } from '../../projections/federation/federated-posts.projection';
import type { NetworkPeerDoc } from '../../projections/federation/network-peers.projection';
import type { SyncQueueItemDoc } from '../../projections/federation/sync-queue.projection';
import type { PostDoc } from '../../projections/content/posts.projection';

const time = str({ format: 'date-time' });
const raw = (properties: Record<string, object>) => obj({ success: { const: true }, ...properties });

export interface SyncQueueItemView {
  id: string;
  node_id: string;
  target_tier: string;
  operation_type: string;
  status: SyncQueueItemDoc['status'];
  retry_count: number;
  max_retries: number;
  created_at: string;
  last_attempt_at: string | null;
  completed_at: string | null;
  error_message: string | null;
}

export const syncQueueItemView = (d: SyncQueueItemDoc): SyncQueueItemView => ({
  id: d._id,
  node_id: d.node_id,
  target_tier: d.target_tier,
  operation_type: d.operation_type,
  status: d.status,
  retry_count: d.retry_count,
  max_retries: d.max_retries,
  created_at: d.created_at,
  last_attempt_at: d.last_attempt_at,
  completed_at: d.completed_at,
  error_message: d.error_message,
});

/** A post in this node's outbox, as written (the origin's signature covers these bytes; receivers escape on their output). */
export interface OutboxPost {
  id: string;
  title: string;
  content: string;
  content_type: string;
  author_id: string;
  created_at: string;
  url: string;
}

export const outboxPost = (d: PostDoc, baseUrl: string): OutboxPost => ({
  id: d.id,
  title: d.title,
  content: d.content,
  content_type: d.content_type,
  author_id: d.author_id,
  created_at: d.created_at,
  url: `${baseUrl}/api/social/posts/${encodeURIComponent(d.id)}`,
});

export interface FederatedPostView {
  id: string;
  origin_node_id: string;
  origin_post_id: string;
  origin_url: string | null;
  author_id: string | null;
  author_name: string | null;
  title: string;
  content: string;
  content_type: string;
  published_at: string | null;
  received_at: string;
  via: string;
  signed: boolean;
}

/** A federated post for GET /federation/feed, its text HTML-escaped (§0.1). */
export const federatedPostView = (d: FederatedPostDoc): FederatedPostView => ({
  id: d._id,
  origin_node_id: d.origin_node_id,
  origin_post_id: d.origin_post_id,
  origin_url: d.origin_url,
  author_id: d.author_id,
  author_name: escapeHtml(d.author_name),
  title: escapeHtml(d.title),
  content: escapeHtml(d.content),
  content_type: d.content_type,
  published_at: d.published_at,
  received_at: d.received_at,
  via: d.via,
  signed: d.signed,
});

export interface PeerView {
  node_id: string;
  url: string;
  name: string | null;
  tier: string;
  has_gpu: boolean;
  vram_free_gb: number;
  tasks: string[];
  source: string;
  first_seen_at: string | null;
  last_seen_at: string | null;
}

export const peerView = (d: NetworkPeerDoc): PeerView => ({
  node_id: d._id,
  url: d.url ?? '',
  name: d.name ?? null,
  tier: d.tier ?? 'flat',
  has_gpu: d.has_gpu ?? false,
  vram_free_gb: d.vram_free_gb ?? 0,
  tasks: d.tasks ?? [],
  source: d.source ?? 'announced',
  first_seen_at: d.first_seen_at ?? null,
  last_seen_at: d.last_seen_at ?? null,
});

export const bestEndpointReply = (best: BestEndpoint) => ({
  success: true as const,
  url: best.url,
  source: best.source,
  node_id: best.node_id,
  tier: best.tier,
  has_gpu: best.has_gpu,
  vram_free_gb: best.vram_free_gb,
  score: best.score,
});

// ---- OpenAPI schemas ----

const STATUS = oneOf(['queued', 'in_progress', 'failed', 'completed', 'dead']);
export const SYNC_QUEUE_ITEM = obj({
  id: str(),
  node_id: str(),
  target_tier: str(),
  operation_type: str(),
  status: STATUS,
  retry_count: int(),
  max_retries: int(),
  created_at: time,
  last_attempt_at: orNull(time),
  completed_at: orNull(time),
  error_message: orNull(str()),
});
const COUNTS = obj({ queued: int(), in_progress: int(), failed: int(), completed: int(), dead: int(), dropped: int() });
export const SYNC_QUEUE_PAGE = obj({
  success: { const: true },
  data: list(SYNC_QUEUE_ITEM),
  meta: obj({ total: int(), limit: int(), offset: int(), has_more: bool(), counts: COUNTS, cap: int(), parent_url: orNull(str()) }),
});
export const SYNC_BATCH_REPLY = obj({
  success: bool(),
  processed: list(str()),
  errors: list(obj({ id: str(), error: str() })),
  replies: list(
    obj({
      id: str(),
      status: int(),
      content_type: str(),
      headers: obj({}, [], { description: 'the reply headers a client acts on: retry-after, location, cache-control', additionalProperties: str() }),
      body: str({ description: 'the reply body as this node sent it' }),
      position: int({ description: "this node's log head after the write" }),
    }),
    { description: "the replies to the `regional_write` items run here (a regional node's client writes); not in the original's reply, present only when there are some" },
  ),
}, ['replies']);
export const INBOX_REPLY = raw({ federated_post_id: str(), created: bool() });
const OUTBOX_POST = obj({ id: str(), title: str(), content: str(), content_type: str(), author_id: str(), created_at: time, url: str(), signature: str({ description: 'Ed25519 (hex) of the canonical JSON of {node_id, post} without the signature' }) });
export const OUTBOX_REPLY = raw({ node_id: str(), url: str(), name: str(), public_key: str(), posts: list(OUTBOX_POST) });
export const FOLLOW_REPLY = raw({ created: bool(), notified: bool() });
export const UNFOLLOW_REPLY = raw({});
const FEDERATED_POST = obj({
  id: str(),
  origin_node_id: str(),
  origin_post_id: str(),
  origin_url: orNull(str()),
  author_id: orNull(str()),
  author_name: orNull(str()),
  title: str(),
  content: str(),
  content_type: str(),
  published_at: orNull(time),
  received_at: time,
  via: oneOf(['inbox', 'pull', 'sync']),
  signed: bool(),
});
export const FEDERATED_FEED = obj({ success: { const: true }, data: list(FEDERATED_POST), meta: obj({ total: int(), limit: int(), offset: int(), has_more: bool() }) });
export const PULL_REPLY = raw({ new_posts: int(), rejected: int() });
export const NODE_ID_REPLY = raw({ node_id: str() });
export const FOLLOWING_REPLY = raw({ data: list(obj({ peer_node_id: str(), peer_url: str(), followed_at: time })), count: int() });
export const FOLLOWERS_REPLY = raw({ data: list(obj({ follower_node_id: str(), follower_url: str(), added_at: time })), count: int() });
const PEER = obj({
  node_id: str(),
  url: str(),
  name: orNull(str()),
  tier: str(),
  has_gpu: bool(),
  vram_free_gb: num(),
  tasks: list(str()),
  source: oneOf(['announced', 'exchange']),
  first_seen_at: orNull(time),
  last_seen_at: orNull(time),
});
export const ANNOUNCE_REPLY = raw({ is_new: bool(), node_id: str(), name: str() });
export const PEERS_REPLY = raw({ node_id: str(), peers: list(PEER), count: int() });
export const EXCHANGE_REPLY = raw({ node_id: str(), peers: list(PEER) });
export const BEST_ENDPOINT_REPLY = raw({ url: str(), source: oneOf(['local', 'lan', 'regional', 'cloud']), node_id: str(), tier: str(), has_gpu: bool(), vram_free_gb: num(), score: int() });
export const PEERS_HEALTH_REPLY = raw({
  node_id: str(),
  tier: str(),
  peers: obj({ total: int(), fresh: int(), stale: int(), by_source: obj({ lan: int(), regional: int(), cloud: int() }) }),
  following: int(),
  followers: int(),
  sync: obj({ parent_url: orNull(str()), sender_running: bool(), counts: COUNTS, last_sync_at: orNull(time) }),
});
export const CONTRIBUTION_REPLY = obj({
  success: { const: true },
  data: list(obj({ node_id: str(), name: orNull(str()), url: orNull(str()), tier: str(), posts_shared: int(), items_synced: int(), contribution_score: int(), last_seen_at: orNull(time) })),
});
