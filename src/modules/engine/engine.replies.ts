/** Reply schemas of the engine routes for the OpenAPI document (plain JSON; shapes in docs/api.md, "Agent engine"). */
import { bool, int, list, num, obj, orNull, oneOf, str } from '../common/openapi';

const fraction = num({ minimum: 0, maximum: 1 });

export const GPU = obj({ index: int(), name: str(), memory_total_mb: num(), memory_used_mb: num(), utilization_pct: orNull(num()) });
export const GPU_SURVEY = obj({ gpu_available: bool(), gpus: list(GPU), absent_reason: orNull(str()) });

export const SYSTEM_PRESSURE = obj({
  sampled_at: str({ format: 'date-time' }),
  ram: orNull(obj({ total_bytes: int(), available_bytes: int(), used_bytes: int(), used_fraction: fraction })),
  cpu: obj({ cores: int(), busy_fraction: orNull(fraction), load_average: list(num()), sample_interval_ms: int() }),
  disk: orNull(obj({ path: str(), total_bytes: int(), available_bytes: int(), used_fraction: fraction })),
  vram: obj({ gpu_available: bool(), gpus: list(GPU), absent_reason: orNull(str()), used_fraction: orNull(fraction) }),
  pressure: fraction,
  dominant: orNull(oneOf(['ram', 'cpu', 'disk', 'vram'])),
  throttle_factor: fraction,
  pause_ms: int(),
  thresholds: obj({ soft: fraction, hard: fraction, max_delay_ms: int() }),
});

const LOG_LINE = obj({ at: str(), stream: oneOf(['stdout', 'stderr', 'supervisor']), line: str() });
const INSTALL = {
  anyOf: [
    obj({ source: { const: 'debian' }, package: str() }),
    obj({ source: { const: 'npm' }, package: str() }),
    obj({ source: { const: 'local' }, path: str() }),
  ],
};
export const TOOL_VIEW = obj({
  name: str(),
  kind: oneOf(['tts', 'stt', 'vision', 'image']),
  description: str(),
  model: str(),
  install: INSTALL,
  program: obj({ name: str(), path: orNull(str()), version: orNull(str()) }),
  command: list(str(), { description: 'the argv, with {node}, {tools_dir}, {program} and {port} filled in at start' }),
  health: obj({ kind: { const: 'http' }, path: str() }),
  estimate: obj({ memory_mb: num(), vram_mb: num() }),
  status: oneOf(['not_set_up', 'set_up', 'running', 'stopped', 'crashed', 'unloaded']),
  process: orNull(obj({ pid: int(), port: int(), argv: list(str()), started_at: str(), healthy: bool(), last_health_at: orNull(str()) })),
  restarts: int(),
  restarting: bool(),
  last_crash: orNull(obj({ at: str(), pid: int(), exit_code: orNull(int()), signal: orNull(str()), cause: oneOf(['exited', 'unhealthy']), will_restart: bool() })),
  set_up_at: orNull(str()),
  stopped_at: orNull(str()),
  stop_reason: orNull(oneOf(['operator', 'node_restarted', 'restart_failed'])),
  unloaded_at: orNull(str()),
  unload_reason: orNull(oneOf(['operator', 'eviction'])),
  logs: list(LOG_LINE),
});
export const TOOL_STATUS = obj({ node_id: str(), tools: list(TOOL_VIEW), totals: obj({ running: int(), memory_mb: num(), vram_mb: num() }) });

export const MODEL_VIEW = obj({
  model: str(),
  source: oneOf(['tool', 'llm']),
  tool: orNull(str()),
  managed: bool(),
  loaded: orNull(bool()),
  priority: oneOf(['pinned', 'hot', 'warm', 'cold', 'evictable']),
  placement: oneOf(['gpu', 'cpu']),
  offloadable: bool(),
  estimate: obj({ memory_mb: num(), vram_mb: num() }),
  vram_held_mb: num(),
  priority_changed_at: orNull(str()),
  priority_changed_by: orNull(str()),
  offloaded_at: orNull(str()),
  evictions: int(),
  last_eviction: orNull(obj({ at: str(), tool: str(), vram_pressure: fraction, threshold: fraction, freed_vram_mb: num() })),
});
export const MODEL_OFFLOADED = obj({ ...(MODEL_VIEW.properties as Record<string, never>), restarted: bool() });
export const VRAM = obj({
  gpu_available: bool(),
  gpus: list(GPU),
  absent_reason: orNull(str()),
  used_fraction: orNull(fraction),
  totals: obj({ total_mb: num(), used_mb: num(), free_mb: num() }),
  models: list(MODEL_VIEW, { description: 'the models that use VRAM by estimate' }),
});
export const LIFECYCLE = obj({
  node_id: str(),
  models: list(MODEL_VIEW),
  vram_pressure: obj({ gpu_available: bool(), used_fraction: orNull(fraction), threshold: fraction, over_threshold: bool(), estimated_held_mb: num() }),
  eviction: obj({ threshold: fraction, order: list(str()), next: orNull(str()) }),
  hive_hints: obj({
    takes_hive_work: bool(),
    refusal: orNull(str()),
    hive_compute_policy: str(),
    max_hive_gpu_pct: num(),
    offered_gpu_hours_per_day: num(),
    vram_budget_mb: num(),
    vram_available_for_hive_mb: num(),
    servable_models: list(str()),
  }),
});

export const CODING_TOOLS = obj({
  tools: list(obj({ name: str(), installed: bool(), path: orNull(str()), version: orNull(str()), capabilities: list(str()), installable: bool(), package: orNull(str()) })),
  executors: list(obj({ name: { const: 'builtin' }, available: bool(), reason: orNull(str()), model: orNull(str()), runs_with: str() })),
  detected_at: str(),
});
export const CODING_RUN = obj({
  run_id: str(),
  tool: { const: 'builtin' },
  task_type: str(),
  status: oneOf(['passed', 'failed', 'timed_out']),
  exit_code: orNull(int()),
  signal: orNull(str()),
  stdout: str(),
  stderr: str(),
  truncated: bool(),
  duration_ms: int(),
  timeout_ms: int(),
  model: orNull(str()),
  code_source: oneOf(['model', 'client']),
  code: str(),
});
const BENCHMARK_ROW = obj({
  tool: str(),
  task_type: orNull(str()),
  runs: int(),
  passed: int(),
  failed: int(),
  timed_out: int(),
  success_rate: fraction,
  median_ms: num(),
  last_run_at: str(),
});
export const CODING_BENCHMARKS = obj({ window: obj({ runs: int(), limit: int() }), by_tool: list(BENCHMARK_ROW), by_tool_and_task_type: list(BENCHMARK_ROW) });
export const CODING_INSTALLED = obj({ tool: str(), package: str(), outcome: { const: 'installed' }, version: orNull(str()), path: str(), duration_ms: int() });

const SKILL_SOURCE = {
  anyOf: [
    obj({ kind: { const: 'upload' } }),
    obj({ kind: { const: 'local' }, path: str() }),
    obj({ kind: { const: 'github' }, repository: str(), path: str(), ref: orNull(str()) }),
  ],
};
const SKILL_FIELDS = { name: str(), description: str(), version: int(), source: SKILL_SOURCE, sha256: str(), ingested_at: str(), ingested_by: str() };
export const SKILL_LIST = obj({ skills: list(obj(SKILL_FIELDS)), total: int() });
export const SKILL = obj({ ...SKILL_FIELDS, instructions: str() });
export const SKILL_INGESTED = obj({ ...SKILL_FIELDS, changed: bool() });
export const SKILL_REMOVED = obj({ removed: { const: true }, name: str(), version: int() });
export const SKILL_DISCOVERY = obj({
  source: { type: 'object', additionalProperties: true },
  found: int(),
  valid: int(),
  ingested: int(),
  skills: list(obj({ location: str(), name: orNull(str()), description: orNull(str()), valid: bool(), problem: orNull(str()), ingested: orNull(bool()) })),
});
