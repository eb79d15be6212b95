/**
 * Bodies and queries of the §19 sync, federation and peer routes, read in
 * order with clear 400s (a missing or unparsable body counts as `{}`).
 */
import type { FederatedPostFields } from '../../aggregates/federation/federated-post';
import type { PeerDescription } from '../../aggregates/federation/network-peer';
import { DomainError } from '../../aggregates/shared/domain-error';
import { type Body, invalid, objectBody } from '../common/body-fields';
import type { IncomingSyncItem } from './federation-sync.commands';
import { NODE_ID } from './federation.requests';

export const ITEM_ID = /^[A-Za-z0-9_.:-]{1,128}$/;
export const MAX_BATCH_ITEMS = 500;
export const MAX_EXCHANGED_PEERS = 100;
export const PEER_TASKS = ['chat', 'stt', 'tts', 'vlm'] as const;
export type PeerTask = (typeof PEER_TASKS)[number];
/** a node's name: plain words (no markup to escape where peers list it) */
const PEER_NAME = /^[\p{L}\p{N} ._:-]{1,128}$/u;
const URL_RULE = /^https?:\/\/[^\s]{1,2000}$/;

const text = (body: Body, field: string, max: number): string | null => {
  const value = body[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalid(`${field} must be a string`);
  if (value.length > max) throw invalid(`${field} must be at most ${max} characters`);
  return value;
};

function nodeIdOf(body: Body, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value.trim() === '') throw invalid(`${field} is required`);
  if (!NODE_ID.test(value)) throw invalid(`${field} must be 1-128 letters, digits or _ . : -`);
  return value;
}

function urlOf(body: Body, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value.trim() === '') throw invalid(`${field} is required`);
  const url = value.trim().replace(/\/+$/, '');
  if (!URL_RULE.test(url)) throw invalid(`${field} must be an http(s) URL`);
  try {
    new URL(url);
  } catch {
    throw invalid(`${field} must be an http(s) URL`);
  }
  return url;
}

/** POST /hierarchy/sync: `{items[{id, operation_type, payload}], node_id}`; malformed items are answered as errors, not the batch. */
export function readSyncBatch(raw: unknown): { nodeId: string; items: IncomingSyncItem[]; invalid: { id: string; error: string }[] } {
  const body = objectBody(raw);
  if (body.encrypted === true) throw invalid('Encrypted envelopes are not supported: send the items signed (x-node-* headers)');
  const nodeId = nodeIdOf(body, 'node_id');
  const items = body.items ?? [];
  if (!Array.isArray(items)) throw invalid('items must be an array');
  if (items.length > MAX_BATCH_ITEMS) throw invalid(`items must hold at most ${MAX_BATCH_ITEMS} items`);
  const valid: IncomingSyncItem[] = [];
  const refused: { id: string; error: string }[] = [];
  const seen = new Set<string>();
  for (const item of items as unknown[]) {
    const entry = (item && typeof item === 'object' && !Array.isArray(item) ? item : {}) as Body;
    const id = entry.id;
    if (typeof id !== 'string' || !ITEM_ID.test(id)) {
      refused.push({ id: typeof id === 'string' ? id.slice(0, 128) : String(id ?? ''), error: 'id must be 1-128 letters, digits or _ . : -' });
      continue;
    }
    if (typeof entry.operation_type !== 'string' || entry.operation_type.length === 0 || entry.operation_type.length > 64) {
      refused.push({ id, error: 'operation_type must be a string of 1-64 characters' });
      continue;
    }
    if (seen.has(id)) continue;
    seen.add(id);
    valid.push({ id, operation_type: entry.operation_type, payload: entry.payload ?? {} });
  }
  return { nodeId, items: valid, invalid: refused };
}

/**
 * A federated post as another node sends it (inbox body, sync_post payload,
 * an outbox entry): `id` (the origin's post id), `title`, `content`;
 * optionally `content_type`, `author_id`, `author_name`, `url`, `created_at`.
 */
export function readFederatedPost(raw: unknown, originNodeId: string, signature: string | null = null): FederatedPostFields {
  const body = objectBody(raw);
  const id = body.id ?? body.post_id;
  if ((typeof id !== 'string' && typeof id !== 'number') || String(id).length === 0 || String(id).length > 128) throw invalid('id is required (the post id at its origin, at most 128 characters)');
  const title = text(body, 'title', 300) ?? '';
  const content = text(body, 'content', 40_000) ?? '';
  if (title.trim() === '' && content.trim() === '') throw invalid('title or content is required');
  const publishedAt = text(body, 'created_at', 64);
  if (publishedAt !== null && Number.isNaN(Date.parse(publishedAt))) throw invalid('created_at must be an ISO 8601 time');
  const url = text(body, 'url', 2000);
  if (url !== null && !URL_RULE.test(url)) throw invalid('url must be an http(s) URL');
  return {
    origin_node_id: originNodeId,
    origin_post_id: String(id),
    origin_url: url,
    author_id: text(body, 'author_id', 128),
    author_name: text(body, 'author_name', 128),
    title,
    content,
    content_type: text(body, 'content_type', 32) ?? 'text',
    published_at: publishedAt,
    signature,
  };
}

/** POST /federation/follow */
export function readFollow(raw: unknown): { peerNodeId: string; peerUrl: string } {
  const body = objectBody(raw);
  return { peerNodeId: nodeIdOf(body, 'peer_node_id'), peerUrl: urlOf(body, 'peer_url') };
}

/** POST /federation/unfollow */
export const readUnfollow = (raw: unknown): { peerNodeId: string } => ({ peerNodeId: nodeIdOf(objectBody(raw), 'peer_node_id') });

/** POST /federation/follow-notification */
export function readFollowNotification(raw: unknown): { followerNodeId: string; followerUrl: string } {
  const body = objectBody(raw);
  return { followerNodeId: nodeIdOf(body, 'follower_node_id'), followerUrl: urlOf(body, 'follower_url') };
}

/** POST /federation/pull: peer_url, limit (1..100, default 20) */
export function readPull(raw: unknown): { peerUrl: string; limit: number } {
  const body = objectBody(raw);
  const peerUrl = urlOf(body, 'peer_url');
  const limit = body.limit ?? 20;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 100) throw invalid('limit must be a whole number from 1 to 100');
  return { peerUrl, limit };
}

/** A peer as announced or listed: node_id and url required; name, tier, has_gpu, vram_free_gb, tasks (or capabilities) optional. */
export function readPeer(raw: unknown): PeerDescription {
  const body = objectBody(raw);
  const nodeId = nodeIdOf(body, 'node_id');
  const url = urlOf(body, 'url');
  const tier = text(body, 'tier', 16) ?? 'flat';
  if (!['flat', 'regional', 'central'].includes(tier)) throw invalid('tier must be flat, regional or central');
  const hasGpu = body.has_gpu ?? false;
  if (typeof hasGpu !== 'boolean') throw invalid('has_gpu must be a boolean');
  const vram = body.vram_free_gb ?? 0;
  if (typeof vram !== 'number' || !Number.isFinite(vram) || vram < 0 || vram > 10_000) throw invalid('vram_free_gb must be a number from 0 to 10000');
  const rawTasks = body.tasks ?? body.capabilities ?? [];
  if (!Array.isArray(rawTasks)) throw invalid('tasks must be an array');
  const tasks = [...new Set(rawTasks.filter((t): t is PeerTask => (PEER_TASKS as readonly unknown[]).includes(t)))].sort();
  const name = text(body, 'name', 128);
  if (name !== null && !PEER_NAME.test(name)) throw invalid('name must be 1-128 letters, digits, spaces or . _ : -');
  return { node_id: nodeId, url, name, tier, has_gpu: hasGpu, vram_free_gb: vram, tasks };
}

/** POST /peers/exchange: `{peers[], sender{node_id, url}}`; a malformed listed peer is skipped. */
export function readExchange(raw: unknown): { sender: { nodeId: string; url: string }; peers: PeerDescription[] } {
  const body = objectBody(raw);
  const sender = objectBody(body.sender ?? {});
  const peers = body.peers ?? [];
  if (!Array.isArray(peers)) throw invalid('peers must be an array');
  if (peers.length > MAX_EXCHANGED_PEERS) throw invalid(`peers must hold at most ${MAX_EXCHANGED_PEERS} peers`);
  const read: PeerDescription[] = [];
  for (const peer of peers as unknown[]) {
    try {
      read.push(readPeer(peer));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }
  return { sender: { nodeId: nodeIdOf(sender, 'node_id'), url: urlOf(sender, 'url') }, peers: read };
}

/** GET /peers/best-endpoint?task= (default chat) */
export function readTask(query: Record<string, unknown> | undefined): PeerTask {
  const task = query?.task ?? 'chat';
  if (typeof task !== 'string' || !(PEER_TASKS as readonly string[]).includes(task)) throw invalid(`task must be one of ${PEER_TASKS.join(', ')}`);
  return task as PeerTask;
}

export const SYNC_QUEUE_STATUSES = ['queued', 'in_progress', 'failed', 'completed', 'dead'] as const;
export type SyncQueueStatus = (typeof SYNC_QUEUE_STATUSES)[number];

/** GET /sync/queue?status= */
export function readQueueStatus(query: Record<string, unknown> | undefined): SyncQueueStatus | null {
  const status = query?.status;
  if (status === undefined || status === '') return null;
  if (typeof status !== 'string' || !(SYNC_QUEUE_STATUSES as readonly string[]).includes(status)) throw invalid(`status must be one of ${SYNC_QUEUE_STATUSES.join(', ')}`);
  return status as SyncQueueStatus;
}
