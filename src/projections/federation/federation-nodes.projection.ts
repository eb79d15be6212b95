/**
 * `federationNodes`: the nodes registered with this node for federation
 * (`federation_nodes`, `_id` the node id): key, URL, tier, whether an admin
 * (or FEDERATION_AUTO_ACCEPT) approved it. Approved nodes' keys are trusted
 * for signed requests (modules/integrity/node-keys.ts); GET /federation/nodes
 * lists them.
 */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const FEDERATION_NODES = 'federation_nodes';

export interface FederationNodeDoc extends Doc {
  public_key: string;
  url: string;
  tier: string;
  status: 'pending' | 'approved';
  registered_at: string;
  approved_at: string | null;
  approved_by: string | null;
}

export const federationNodesProjection = defineProjection({
  name: 'federationNodes',
  version: 1,
  collections: [FEDERATION_NODES],
  indexes: [{ collection: FEDERATION_NODES, spec: { keys: { registered_at: 1 } } }],
  on: {
    FederationNodeRegistered: (event, writer) => {
      const d = event.data;
      applyOnce(writer, FEDERATION_NODES, d.node_id, event, {
        $set: { public_key: d.public_key, url: d.url, tier: d.tier },
        $setOnInsert: { status: 'pending', registered_at: d.registered_at, approved_at: null, approved_by: null },
      });
    },
    FederationNodeApproved: (event, writer) => {
      const d = event.data;
      applyOnce(writer, FEDERATION_NODES, d.node_id, event, { $set: { status: 'approved', approved_at: d.approved_at, approved_by: d.approved_by } });
    },
  },
});
