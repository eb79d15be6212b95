/**
 * `registryNodes`: the nodes registered with this node as an integrity
 * registry (`registry_nodes`, `_id` the node id): key, reported code hash
 * and version, whether the hash is the expected one. GET
 * /integrity/trusted-keys lists their keys (banned nodes left out).
 */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const REGISTRY_NODES = 'registry_nodes';

export interface RegistryNodeDoc extends Doc {
  public_key: string;
  code_hash: string | null;
  version: string | null;
  code_hash_matches: boolean | null;
  registered_at: string;
  updated_at: string;
}

export const registryNodesProjection = defineProjection({
  name: 'registryNodes',
  version: 1,
  collections: [REGISTRY_NODES],
  indexes: [{ collection: REGISTRY_NODES, spec: { keys: { registered_at: 1 } } }],
  on: {
    RegistryNodeRegistered: (event, writer) => {
      const d = event.data;
      applyOnce(writer, REGISTRY_NODES, d.node_id, event, {
        $set: { public_key: d.public_key, code_hash: d.code_hash, version: d.version, code_hash_matches: d.code_hash_matches, updated_at: d.registered_at },
        $setOnInsert: { registered_at: d.registered_at },
      });
    },
  },
});
