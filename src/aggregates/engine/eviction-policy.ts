/**
 * The eviction policy of the model lifecycle (docs/api.md, "Model
 * lifecycle"), a pure rule: when VRAM pressure passes the threshold, unload
 * one model: among the models this node runs (a running tool) that hold VRAM
 * (a GPU placement and a VRAM estimate above 0) and are not pinned, the one
 * of the lowest priority; of equal priority, the one holding the most VRAM;
 * then by name. One model per round: the pressure is measured again before
 * the next.
 */
import { type ModelPriority, PRIORITY_RANK } from './model-lifecycle';

export interface EvictionCandidate {
  model: string;
  tool: string;
  loaded: boolean;
  priority: ModelPriority;
  placement: 'gpu' | 'cpu';
  vram_mb: number;
}

export function evictable(model: EvictionCandidate): boolean {
  return model.loaded && model.placement === 'gpu' && model.vram_mb > 0 && model.priority !== 'pinned';
}

/** The models in the order the policy would unload them. */
export function evictionOrder(models: readonly EvictionCandidate[]): EvictionCandidate[] {
  return models
    .filter(evictable)
    .sort((a, b) => PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority] || b.vram_mb - a.vram_mb || a.model.localeCompare(b.model));
}

/** The model to unload now, or null: no pressure reading, pressure at or below the threshold, or nothing evictable. */
export function chooseEviction(models: readonly EvictionCandidate[], vramPressure: number | null, threshold: number): EvictionCandidate | null {
  if (vramPressure === null || vramPressure <= threshold) return null;
  return evictionOrder(models)[0] ?? null;
}
