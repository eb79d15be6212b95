/**
 * GET /peers/best-endpoint (social-routes §19): where a task (chat, stt, tts,
 * vlm) is best served. A pure function of this node and the known peers.
 *
 * - This node first, when it serves the task.
 * - Otherwise each fresh peer that may serve it is scored, and the highest wins:
 *   - by where it is: LAN 800 (its URL's host is a loopback or private
 *     address, or `localhost`), regional 400, or 500 for this node's parent
 *     (a regional-tier peer), cloud 200 (any other: central, or a public flat node);
 *   - capability: +100 when it lists the task; a peer listing other tasks
 *     only is left out, one listing none is scored without the bonus;
 *     +50 with a GPU, +2 per free GB of VRAM up to 24 GB (+48);
 *   - freshness: +100 when seen in the last 5 minutes, +50 in the last hour,
 *     nothing up to 24 hours; a peer not seen for 24 hours is left out.
 *   Ties go to the one seen last, then to the lower node id.
 * - With no candidate, this node answers (source `local`).
 */
import { isIP } from 'node:net';
import { isPublicAddress } from '../common/public-address';

export type EndpointSource = 'local' | 'lan' | 'regional' | 'cloud';

export interface EndpointNode {
  node_id: string;
  url: string;
  tier: string;
  has_gpu: boolean;
  vram_free_gb: number;
  tasks: readonly string[];
}

export interface KnownPeer extends EndpointNode {
  last_seen_at: string;
}

export interface BestEndpoint extends Omit<EndpointNode, 'tasks'> {
  source: EndpointSource;
  score: number;
}

export const SOURCE_BASE: Record<Exclude<EndpointSource, 'local'>, number> = { lan: 800, regional: 400, cloud: 200 };
export const PARENT_BONUS = 100;
export const CAPABILITY_BONUS = 100;
export const GPU_BONUS = 50;
export const VRAM_POINTS_PER_GB = 2;
export const VRAM_COUNTED_GB = 24;
const MINUTE = 60_000;
export const STALE_AFTER_MS = 24 * 60 * MINUTE;

/** LAN, regional or cloud, from the peer's URL and tier. */
export function sourceOf(peer: Pick<EndpointNode, 'url' | 'tier'>): Exclude<EndpointSource, 'local'> {
  let host = '';
  try {
    host = new URL(peer.url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return 'cloud';
  }
  if (host === 'localhost' || (isIP(host) !== 0 && !isPublicAddress(host))) return 'lan';
  return peer.tier === 'regional' ? 'regional' : 'cloud';
}

/** A peer's score for the task at `now`, or null when it is left out (stale, or it serves other tasks only). */
export function scorePeer(peer: KnownPeer, task: string, now: Date, parentUrl: string | null): number | null {
  const age = now.getTime() - Date.parse(peer.last_seen_at);
  if (!Number.isFinite(age) || age > STALE_AFTER_MS) return null;
  if (peer.tasks.length > 0 && !peer.tasks.includes(task)) return null;
  const source = sourceOf(peer);
  let score = SOURCE_BASE[source];
  if (source === 'regional' && parentUrl !== null && sameOrigin(peer.url, parentUrl)) score += PARENT_BONUS;
  if (peer.tasks.includes(task)) score += CAPABILITY_BONUS;
  if (peer.has_gpu) score += GPU_BONUS;
  score += Math.min(Math.max(peer.vram_free_gb, 0), VRAM_COUNTED_GB) * VRAM_POINTS_PER_GB;
  score += age <= 5 * MINUTE ? 100 : age <= 60 * MINUTE ? 50 : 0;
  return score;
}

export function bestEndpoint(input: { task: string; local: EndpointNode; peers: readonly KnownPeer[]; parentUrl: string | null; now: Date }): BestEndpoint {
  const { local, task } = input;
  const here = (): BestEndpoint => ({ node_id: local.node_id, url: local.url, tier: local.tier, has_gpu: local.has_gpu, vram_free_gb: local.vram_free_gb, source: 'local', score: 0 });
  if (local.tasks.includes(task)) return here();
  let best: { peer: KnownPeer; score: number } | null = null;
  for (const peer of input.peers) {
    if (peer.node_id === local.node_id) continue;
    const score = scorePeer(peer, task, input.now, input.parentUrl);
    if (score === null) continue;
    if (!best || score > best.score || (score === best.score && (peer.last_seen_at > best.peer.last_seen_at || (peer.last_seen_at === best.peer.last_seen_at && peer.node_id < best.peer.node_id)))) {
      best = { peer, score };
    }
  }
  if (!best) return here();
  const { peer, score } = best;
  return { node_id: peer.node_id, url: peer.url, tier: peer.tier, has_gpu: peer.has_gpu, vram_free_gb: peer.vram_free_gb, source: sourceOf(peer), score };
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}
