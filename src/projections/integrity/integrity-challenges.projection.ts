/**
 * `integrityChallenges`: one document per challenge this node issued
 * (social-routes §20's challenge record), `_id` the challenge id, in
 * `integrity_challenges`; listed newest first by GET /integrity/challenges.
 */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const INTEGRITY_CHALLENGES = 'integrity_challenges';

export interface IntegrityChallengeDoc extends Doc {
  challenger_node_id: string;
  target_node_id: string;
  challenge_type: string;
  challenge_nonce: string;
  status: 'pending' | 'passed' | 'failed';
  result_details: string | null;
  issued_by: string;
  created_at: string;
  responded_at: string | null;
  evaluated_at: string | null;
}

export const integrityChallengesProjection = defineProjection({
  name: 'integrityChallenges',
  version: 1,
  collections: [INTEGRITY_CHALLENGES],
  indexes: [{ collection: INTEGRITY_CHALLENGES, spec: { keys: { created_at: -1 } } }],
  on: {
    IntegrityChallengeIssued: (event, writer) => {
      const d = event.data;
      applyOnce(writer, INTEGRITY_CHALLENGES, d.challenge_id, event, {
        $set: {
          challenger_node_id: d.challenger_node_id,
          target_node_id: d.target_node_id,
          challenge_type: d.challenge_type,
          challenge_nonce: d.challenge_nonce,
          status: 'pending',
          result_details: null,
          issued_by: d.issued_by,
          created_at: d.issued_at,
          responded_at: null,
          evaluated_at: null,
        },
      });
    },
    IntegrityChallengeEvaluated: (event, writer) => {
      const d = event.data;
      applyOnce(
        writer,
        INTEGRITY_CHALLENGES,
        d.challenge_id,
        event,
        { $set: { status: d.passed ? 'passed' : 'failed', result_details: d.details, responded_at: d.evaluated_at, evaluated_at: d.evaluated_at } },
        { upsert: false },
      );
    },
  },
});
