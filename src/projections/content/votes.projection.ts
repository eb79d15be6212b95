/**
 * `votes`: each user's current vote on each post and comment
 * (`<target_type>:<target_id>:<voter_id>`, value 1, -1 or 0 once removed):
 * the viewer's `user_vote` and the upvoters of the likes lists. What a vote
 * decides is decided on the target's stream; this only shows it.
 */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const VOTES = 'votes';

export type VoteTargetType = 'post' | 'comment';

export interface VoteDoc extends Doc {
  target_type: VoteTargetType;
  target_id: string;
  voter_id: string;
  value: number;
  at: string;
}

export const voteDocId = (targetType: VoteTargetType, targetId: string, voterId: string): string => `${targetType}:${targetId}:${voterId}`;

function record(event: { position: number }, writer: Parameters<typeof applyOnce>[0], targetType: VoteTargetType, targetId: string, data: { voter_id: string; value: number; at: string }): void {
  applyOnce(writer, VOTES, voteDocId(targetType, targetId, data.voter_id), event, {
    $set: { target_type: targetType, target_id: targetId, voter_id: data.voter_id, value: data.value, at: data.at },
  });
}

export const votesProjection = defineProjection({
  name: 'votes',
  version: 1,
  collections: [VOTES],
  indexes: [{ collection: VOTES, spec: { keys: { target_type: 1, target_id: 1, value: 1 } } }],
  on: {
    PostVoted: (event, writer) => record(event, writer, 'post', event.data.post_id, event.data),
    CommentVoted: (event, writer) => record(event, writer, 'comment', event.data.comment_id, event.data),
  },
});
