/**
 * The `peer_nodes` read model: what each peer node said of itself over the
 * gossip topic (SPEC §2.4: cause_alignment and electricity_rate_kwh are
 * gossiped to peers), one document per peer node id. It is not a projection
 * of this node's event store: PeerGossipListener
 * (src/sagas/peer-gossip.listener.ts) feeds it from the bus, ComputeProviderQueries
 * reads it.
 *
 * Each report carries the origin's log position; an older or repeated report
 * changes nothing.
 */
import { type Doc, DuplicateKeyError, type ReadStore } from '../../infrastructure/read-store/read-store.port';

export const PEER_NODES = 'peer_nodes';

export interface PeerNodeDoc extends Doc {
  node_tier?: string;
  cause_alignment?: string;
  electricity_rate_kwh?: number;
  joined?: boolean;
  origin_position?: number;
  last_seen_at?: string;
  /** the peer's identity key (Ed25519, 32 bytes hex, as GET /integrity/public-key shows it), pinned the first time it is seen: a later report cannot replace it */
  public_key?: string;
}

/** What a peer reported of itself, at a position of its own log. */
export interface PeerNodeReport {
  node_id: string;
  node_tier: string;
  cause_alignment: string;
  electricity_rate_kwh: number;
  /** true once the node joined as a provider; absent when this report does not say */
  joined?: boolean;
  /** the node's identity key, pinned on first sight */
  public_key?: string;
  /** the origin node's global log position of the event: orders reports per node */
  position: number;
  seen_at: string;
}

/** Applies one report, unless the document already holds this or a later position. */
export async function recordPeerNode(store: ReadStore, report: PeerNodeReport): Promise<void> {
  const set: Record<string, unknown> = {
    node_tier: report.node_tier,
    cause_alignment: report.cause_alignment,
    electricity_rate_kwh: report.electricity_rate_kwh,
    origin_position: report.position,
    last_seen_at: report.seen_at,
  };
  if (report.joined === true) set.joined = true;
  try {
    await store
      .collection<PeerNodeDoc>(PEER_NODES)
      .updateOne({ _id: report.node_id, origin_position: { $not: { $gte: report.position } } }, { $set: set }, { upsert: true });
  } catch (error) {
    // the document exists with a newer or equal position: already applied
    if (!(error instanceof DuplicateKeyError) && (error as { code?: number }).code !== 11000) throw error;
  }
  if (report.public_key) {
    // trust on first use: only a document without a key takes one
    await store.collection<PeerNodeDoc>(PEER_NODES).updateOne({ _id: report.node_id, public_key: null }, { $set: { public_key: report.public_key } });
  }
}
