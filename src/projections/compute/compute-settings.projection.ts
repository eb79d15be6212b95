/**
 * `compute_settings`: per node, the compute settings operators stored
 * (`policy.<field>` from NodeComputeConfigUpdated, `peer.<field>` from the
 * peer node record) and whether it joined as a provider. The read view merges
 * these with the environment and the defaults.
 */
import type { PeerSettings, PolicySettings } from '../../aggregates/compute/compute-fields';
import type { ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const COMPUTE_SETTINGS = 'compute_settings';

export interface ComputeSettingsDoc extends Doc {
  node_tier?: string;
  policy?: Partial<PolicySettings>;
  peer?: Partial<PeerSettings>;
  joined?: boolean;
  joined_at?: string | null;
  updated_at?: string;
}

function prefixed(prefix: string, changes: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(changes).map(([field, value]) => [`${prefix}.${field}`, value]));
}

const save = (writer: ProjectionWriter, nodeId: string, event: { position: number }, set: Record<string, unknown>): void =>
  applyOnce(writer, COMPUTE_SETTINGS, nodeId, event, { $set: set });

export const computeSettingsProjection = defineProjection({
  name: 'computeSettings',
  version: 1,
  collections: [COMPUTE_SETTINGS],
  on: {
    NodeComputeConfigUpdated: (event, writer) => {
      const d = event.data;
      save(writer, d.node_id, event, { node_tier: d.node_tier, ...prefixed('policy', d.changes), updated_at: d.updated_at });
    },
    PeerNodeRecordUpdated: (event, writer) => {
      const d = event.data;
      save(writer, d.node_id, event, { node_tier: d.node_tier, ...prefixed('peer', d.changes), updated_at: d.updated_at });
    },
    ComputeProviderJoined: (event, writer) => {
      const d = event.data;
      save(writer, d.node_id, event, { node_tier: d.node_tier, joined: true, joined_at: d.joined_at });
    },
  },
});
