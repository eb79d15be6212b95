/**
 * Whether this node takes hive work, from its effective compute settings
 * (SPEC §2.4: environment > stored > default, see compute-view.ts).
 *
 * A node takes hive work unless one of these says no:
 * - `hive_compute_policy: local_only`: the node's compute stays local, it
 *   serves no peer (local_preferred, hive_preferred, cloud_allowed all serve);
 * - `max_hive_gpu_pct: 0`: no share of the node's compute is offered to the hive.
 *
 * So the defaults (local_preferred, 50 %) take hive work. The other fields do
 * not gate it: compute_policy is about where this node's own prompts run,
 * accept_thought_experiments / accept_frontier_training name kinds of work
 * the hive does not send yet, and the metered fields concern paid APIs,
 * which the worker never calls on its own (it uses the node's LLM port).
 */
import type { ComputeSettings } from '../../aggregates/compute/compute-fields';

export function takesHiveWork(settings: Pick<ComputeSettings, 'hive_compute_policy' | 'max_hive_gpu_pct'>): boolean {
  return hiveRefusal(settings) === null;
}

/** Why a node refuses hive work (for logs), or null when it takes it. */
export function hiveRefusal(settings: Pick<ComputeSettings, 'hive_compute_policy' | 'max_hive_gpu_pct'>): string | null {
  if (settings.hive_compute_policy === 'local_only') return 'hive_compute_policy is local_only';
  if (settings.max_hive_gpu_pct <= 0) return 'max_hive_gpu_pct is 0';
  return null;
}
