/**
 * `compute_settings`: per node, the compute settings operators stored
 * (`policy.<field>` from NodeComputeConfigUpdated, `peer.<field>` from the
 * peer node record) and whether it joined as a provider. The read view merges
 * these with the environment and the defaults.
 */
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port';
import type { ProjectionDefinition, ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import type { PeerSettings, PolicySettings } from '../../aggregates/compute/compute-fields';
import { applyOnce } from '../support/apply-once';

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

export const computeSettingsProjection: ProjectionDefinition = {
  name: 'computeSettings',
  version: 1,
  eventTypes: ['NodeComputeConfigUpdated', 'PeerNodeRecordUpdated', 'ComputeProviderJoined'],
  collections: [COMPUTE_SETTINGS],
  apply(event: RecordedEvent, writer: ProjectionWriter): void {
    const data = event.data as { node_id: string; node_tier: string; changes?: Record<string, unknown>; updated_at?: string; joined_at?: string };
    const set: Record<string, unknown> = { node_tier: data.node_tier };
    switch (event.type) {
      case 'NodeComputeConfigUpdated':
        Object.assign(set, prefixed('policy', data.changes ?? {}), { updated_at: data.updated_at });
        break;
      case 'PeerNodeRecordUpdated':
        Object.assign(set, prefixed('peer', data.changes ?? {}), { updated_at: data.updated_at });
        break;
      case 'ComputeProviderJoined':
        Object.assign(set, { joined: true, joined_at: data.joined_at });
        break;
    }
    applyOnce(writer, COMPUTE_SETTINGS, String(data.node_id), event, { $set: set });
  },
};
