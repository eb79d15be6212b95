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
