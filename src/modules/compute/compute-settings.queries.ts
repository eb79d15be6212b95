/**
 * This node's compute settings as they apply (SPEC §2.4): the stored values
 * of the `compute_settings` read model merged with the environment and the
 * defaults (compute-view.ts). Read by the settings routes, the chat pipeline
 * and the hive worker.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { ComputeSettings } from '../../aggregates/compute/compute-fields';
import { COMPUTE_OVERRIDES, type ComputeOverrides } from '../../config/compute.config';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { COMPUTE_SETTINGS, type ComputeSettingsDoc } from '../../projections/compute/compute-settings.projection';
import { type MergedComputeSettings, mergeComputeSettings, type ValueSource } from './compute-view';

export type ComputeSettingsView = { node_id: string; node_tier: string } & ComputeSettings & { sources: Record<string, ValueSource> };

@Injectable()
export class ComputeSettingsQueries {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(COMPUTE_OVERRIDES) private readonly overrides: ComputeOverrides,
  ) {}

  /** This node's stored settings document, if any. */
  stored(): Promise<ComputeSettingsDoc | null> {
    return this.store.collection<ComputeSettingsDoc>(COMPUTE_SETTINGS).findOne({ _id: this.config.nodeId });
  }

  async merged(): Promise<MergedComputeSettings> {
    const doc = await this.stored();
    return mergeComputeSettings(this.overrides, { policy: doc?.policy, peer: doc?.peer }, this.config.nodeTier);
  }

  async settings(): Promise<ComputeSettingsView> {
    const { values, sources } = await this.merged();
    return { node_id: this.config.nodeId, node_tier: this.config.nodeTier, ...values, sources };
  }
}
