/**
 * `engineModels`: one document per model whose lifecycle an operator or the
 * eviction policy touched, in `engine_models`, `_id` the model's name: its
 * priority, placement and last eviction. A model never touched has no
 * document and is `warm` on the GPU (the lifecycle's defaults).
 */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const ENGINE_MODELS = 'engine_models';

export interface EngineModelDoc extends Doc {
  model: string;
  priority: string;
  priority_changed_at: string | null;
  priority_changed_by: string | null;
  placement: 'gpu' | 'cpu';
  offloaded_at: string | null;
  last_eviction: { at: string; tool: string; vram_pressure: number; threshold: number; freed_vram_mb: number } | null;
  evictions: number;
}

const DEFAULTS = {
  priority: 'warm',
  priority_changed_at: null,
  priority_changed_by: null,
  placement: 'gpu',
  offloaded_at: null,
  last_eviction: null,
  evictions: 0,
};

/** $setOnInsert of the defaults not being $set or $inc'd by this update. */
const insertDefaults = (...taken: string[]) => Object.fromEntries(Object.entries(DEFAULTS).filter(([key]) => !taken.includes(key)));

export const engineModelsProjection = defineProjection({
  name: 'engineModels',
  version: 1,
  collections: [ENGINE_MODELS],
  indexes: [],
  on: {
    ModelPriorityChanged: (event, writer) => {
      const d = event.data;
      applyOnce(writer, ENGINE_MODELS, d.model, event, {
        $set: { model: d.model, priority: d.priority, priority_changed_at: d.changed_at, priority_changed_by: d.changed_by },
        $setOnInsert: insertDefaults('priority', 'priority_changed_at', 'priority_changed_by'),
      });
    },
    ModelOffloaded: (event, writer) => {
      const d = event.data;
      applyOnce(writer, ENGINE_MODELS, d.model, event, {
        $set: { model: d.model, placement: 'cpu', offloaded_at: d.offloaded_at },
        $setOnInsert: insertDefaults('placement', 'offloaded_at'),
      });
    },
    ModelEvicted: (event, writer) => {
      const d = event.data;
      applyOnce(writer, ENGINE_MODELS, d.model, event, {
        $set: { model: d.model, last_eviction: { at: d.evicted_at, tool: d.tool, vram_pressure: d.vram_pressure, threshold: d.threshold, freed_vram_mb: d.freed_vram_mb } },
        $inc: { evictions: 1 },
        $setOnInsert: insertDefaults('last_eviction', 'evictions'),
      });
    },
  },
});
