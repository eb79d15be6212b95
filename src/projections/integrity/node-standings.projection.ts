/**
 * `nodeStandings`: one document per node this node has banned or banned and
 * let back (`node_standings`, `_id` the node id): whether it is banned now,
 * its fraud score and why. The node-signature guard refuses a banned node;
 * GET /integrity/ban-list lists them.
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
}

export const nodeStandingsProjection = defineProjection({
  name: 'nodeStandings',
  version: 1,
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
  },
});
