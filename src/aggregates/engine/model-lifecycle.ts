/**
 * One model's place in this node's lifecycle (issue 18): stream
 * `model-<name>`. An operator or admin sets its priority and offloads it from
 * the GPU to the CPU; the eviction policy records when it unloaded the model
 * under VRAM pressure (the tool's own stream records the unload itself).
 *
 * Priorities, from kept longest to evicted first (docs/api.md, "Model
 * lifecycle"): `pinned` (never evicted), `hot`, `warm` (the default),
 * `cold`, `evictable`.
 *
 * - A priority change to the current priority records nothing.
 * - An offload of a model already on the CPU records nothing.
 * - An eviction of a pinned model is refused (the policy never picks one; a
 *   race with a priority change must not evict it).
 */
import type { Decider, DomainEvent } from '../shared/decider';
import { assertNever, DomainError } from '../shared/domain-error';

export const MODEL_PRIORITIES = ['pinned', 'hot', 'warm', 'cold', 'evictable'] as const;
export type ModelPriority = (typeof MODEL_PRIORITIES)[number];
export const DEFAULT_PRIORITY: ModelPriority = 'warm';

/** Higher is kept longer; the eviction policy unloads the lowest first. */
export const PRIORITY_RANK: Readonly<Record<ModelPriority, number>> = { pinned: 4, hot: 3, warm: 2, cold: 1, evictable: 0 };

export type Placement = 'gpu' | 'cpu';

export type ModelPriorityChanged = DomainEvent<
  'ModelPriorityChanged',
  { model: string; node_id: string; priority: ModelPriority; previous: ModelPriority; changed_by: string; changed_at: string }
>;
export type ModelOffloaded = DomainEvent<'ModelOffloaded', { model: string; node_id: string; from: 'gpu'; to: 'cpu'; offloaded_by: string; offloaded_at: string }>;
export type ModelEvicted = DomainEvent<
  'ModelEvicted',
  { model: string; node_id: string; tool: string; priority: ModelPriority; vram_pressure: number; threshold: number; freed_vram_mb: number; evicted_at: string }
>;

export type ModelLifecycleEvent = ModelPriorityChanged | ModelOffloaded | ModelEvicted;

export interface ModelLifecycleState {
  priority: ModelPriority;
  placement: Placement;
}

export type ModelLifecycleCommand =
  | { kind: 'setPriority'; model: string; nodeId: string; priority: ModelPriority; by: string }
  | { kind: 'offload'; model: string; nodeId: string; by: string }
  | { kind: 'evict'; model: string; nodeId: string; tool: string; vramPressure: number; threshold: number; freedVramMb: number };

export function modelStreamId(model: string): string {
  return `model-${model}`;
}

export function isModelPriority(value: unknown): value is ModelPriority {
  return typeof value === 'string' && (MODEL_PRIORITIES as readonly string[]).includes(value);
}

export const modelLifecycleDecider: Decider<ModelLifecycleState, ModelLifecycleCommand, ModelLifecycleEvent> = {
  initialState: { priority: DEFAULT_PRIORITY, placement: 'gpu' },

  evolve(state, event) {
    switch (event.type) {
      case 'ModelPriorityChanged':
        return { ...state, priority: event.data.priority };
      case 'ModelOffloaded':
        return { ...state, placement: 'cpu' };
      case 'ModelEvicted':
        return state;
      default:
        return assertNever(event);
    }
  },

  decide(command, state, now) {
    const at = now.toISOString();
    switch (command.kind) {
      case 'setPriority':
        if (!isModelPriority(command.priority)) throw new DomainError('invalid', `priority must be one of ${MODEL_PRIORITIES.join(', ')}`);
        if (command.priority === state.priority) return [];
        return [
          {
            type: 'ModelPriorityChanged',
            data: { model: command.model, node_id: command.nodeId, priority: command.priority, previous: state.priority, changed_by: command.by, changed_at: at },
          },
        ];
      case 'offload':
        if (state.placement === 'cpu') return [];
        return [{ type: 'ModelOffloaded', data: { model: command.model, node_id: command.nodeId, from: 'gpu', to: 'cpu', offloaded_by: command.by, offloaded_at: at } }];
      case 'evict':
        if (state.priority === 'pinned') throw new DomainError('conflict', `model ${command.model} is pinned: it is never evicted`);
        return [
          {
            type: 'ModelEvicted',
            data: {
              model: command.model,
              node_id: command.nodeId,
              tool: command.tool,
              priority: state.priority,
              vram_pressure: command.vramPressure,
              threshold: command.threshold,
              freed_vram_mb: command.freedVramMb,
              evicted_at: at,
            },
          },
        ];
      default:
        return assertNever(command);
    }
  },
};
