/**
 * `nodeStandings`: one document per node this node has banned, let back or
 * audited (`node_standings`, `_id` the node id): whether it is banned now,
 * its fraud score and why, and when it was last audited. The node-signature
 * guard refuses a banned node; GET /integrity/ban-list lists them.
 * Version 2: audits and alerts move the fraud score.
 */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const NODE_STANDINGS = 'node_standings';

export interface NodeStandingDoc extends Doc {
  banned: boolean;
  fraud_score: number;
  reason: string;
  changed_by: string;
  changed_at: string;
  last_audited_at?: string;
  audit_rounds?: number;
}

export const nodeStandingsProjection = defineProjection({
  name: 'nodeStandings',
  version: 2,
  collections: [NODE_STANDINGS],
  indexes: [{ collection: NODE_STANDINGS, spec: { keys: { banned: 1 } } }],
  on: {
    NodeBanned: (event, writer) => {
      const d = event.data;
      applyOnce(writer, NODE_STANDINGS, d.node_id, event, { $set: { banned: true, fraud_score: d.fraud_score, reason: d.reason, changed_by: d.banned_by, changed_at: d.banned_at } });
    },
    NodeUnbanned: (event, writer) => {
      const d = event.data;
      applyOnce(writer, NODE_STANDINGS, d.node_id, event, { $set: { banned: false, fraud_score: d.fraud_score, reason: d.reason, changed_by: d.unbanned_by, changed_at: d.unbanned_at } });
    },
    NodeAudited: (event, writer) => {
      const d = event.data;
      applyOnce(writer, NODE_STANDINGS, d.node_id, event, {
        $set: { fraud_score: d.fraud_score, last_audited_at: d.audited_at },
        $inc: { audit_rounds: 1 },
        $setOnInsert: { banned: false, reason: '', changed_by: d.audited_by, changed_at: d.audited_at },
      });
    },
    IntegrityAlertRaised: (event, writer) => {
      const d = event.data;
      applyOnce(writer, NODE_STANDINGS, d.node_id, event, {
        $set: { fraud_score: d.fraud_score },
        $setOnInsert: { banned: false, reason: '', changed_by: 'system:audit', changed_at: d.raised_at },
      });
    },
  },
});
