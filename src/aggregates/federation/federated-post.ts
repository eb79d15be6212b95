/**
 * A post another node published and this node received (social-routes §19:
 * POST /federation/inbox, POST /federation/pull, a `sync_post` item of
 * POST /hierarchy/sync), stream `federatedPost-<id>` where the id is derived
 * from the origin node and the origin's post id (federatedPostId): the same
 * post arriving again, by any of the three ways, records nothing.
 */
import { createHash } from 'node:crypto';
import type { Decider, DomainEvent } from '../shared/decider';
import { assertNever } from '../shared/domain-error';

export type FederatedVia = 'inbox' | 'pull' | 'sync';

export interface FederatedPostFields {
  origin_node_id: string;
  origin_post_id: string;
  origin_url: string | null;
  author_id: string | null;
  author_name: string | null;
  title: string;
  content: string;
  content_type: string;
  /** when the origin published it */
  published_at: string | null;
  /** the origin node's Ed25519 signature of the post, when it came with one (the outbox signs each post) */
  signature: string | null;
}

export type FederatedPostReceived = DomainEvent<'FederatedPostReceived', FederatedPostFields & { federated_post_id: string; via: FederatedVia; received_at: string }>;
export type FederatedPostEvent = FederatedPostReceived;

/** `fp_` and 24 hex characters of sha256(origin node id, origin post id). */
export function federatedPostId(originNodeId: string, originPostId: string): string {
  return `fp_${createHash('sha256').update(`${originNodeId}\n${originPostId}`).digest('hex').slice(0, 24)}`;
}

export const federatedPostStreamId = (id: string): string => `federatedPost-${id}`;

export type FederatedPostState = { received: false } | { received: true; via: FederatedVia };

export type FederatedPostCommand = { kind: 'receive'; post: FederatedPostFields; via: FederatedVia };

export const federatedPostDecider: Decider<FederatedPostState, FederatedPostCommand, FederatedPostEvent> = {
  initialState: { received: false },
  evolve(_state, event) {
    switch (event.type) {
      case 'FederatedPostReceived':
        return { received: true, via: event.data.via };
      default:
        return assertNever(event.type);
    }
  },
  decide(command, state, now) {
    switch (command.kind) {
      case 'receive':
        if (state.received) return [];
        return [
          {
            type: 'FederatedPostReceived',
            data: { ...command.post, federated_post_id: federatedPostId(command.post.origin_node_id, command.post.origin_post_id), via: command.via, received_at: now.toISOString() },
          },
        ];
      default:
        return assertNever(command.kind);
    }
  },
};
