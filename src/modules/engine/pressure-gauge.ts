/**
 * System pressure and the throttle factor (docs/api.md, "System pressure").
 *
 *   pressure  = the largest used fraction among RAM, CPU, disk (DATA_DIR) and
 *               VRAM (the fullest GPU), each 0..1, of those this node can read
 *   throttle  = 1                                   when pressure ≤ soft
 *               (hard − pressure) / (hard − soft)   between
 *               0                                   when pressure ≥ hard
 *   pause     = round((1 − throttle) × max_delay_ms)
 *
 * The throttle factor is the share of full speed background work may take;
 * the hive worker and the goal dispatcher call `pace()` before each unit of
 * work, which waits the pause (so they slow down under pressure and never
 * stop outright: a node at throttle 0 still works, at one unit per pause).
 *
 * CPU is a delta between two samples of /proc/stat kept by a sampler timer
 * (ENGINE_CPU_SAMPLE_MS); the GPU survey is cached for a few seconds so that
 * a burst of reads does not spawn nvidia-smi for each.
 */
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { cpus, loadavg } from 'node:os';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import type { EngineConfig } from '../../config/engine.config';
import {
  type CpuTimes,
  cpuBusyFraction,
  type DiskReading,
  type GpuSurvey,
  type RamReading,
  readCpuTimes,
  readDisk,
  readRam,
  surveyGpus,
  vramFraction,
} from './system-readings';

export type PressureSource = 'ram' | 'cpu' | 'disk' | 'vram';

export interface PressureReading {
  sampled_at: string;
  ram: RamReading | null;
  cpu: { cores: number; busy_fraction: number | null; load_average: number[]; sample_interval_ms: number };
  disk: DiskReading | null;
  vram: GpuSurvey & { used_fraction: number | null };
  pressure: number;
  /** the source whose fraction is the pressure; null when nothing could be read */
  dominant: PressureSource | null;
  throttle_factor: number;
  pause_ms: number;
  thresholds: { soft: number; hard: number; max_delay_ms: number };
}

export interface Throttle {
  pressure: number;
  dominant: PressureSource | null;
  throttle_factor: number;
  pause_ms: number;
}

/** The formula above, pure. */
export function throttleFor(fractions: Partial<Record<PressureSource, number | null>>, config: Pick<EngineConfig, 'pressureSoft' | 'pressureHard' | 'throttleMaxDelayMs'>): Throttle {
  let pressure = 0;
  let dominant: PressureSource | null = null;
  for (const [source, fraction] of Object.entries(fractions) as [PressureSource, number | null | undefined][]) {
    if (fraction === null || fraction === undefined) continue;
    if (dominant === null || fraction > pressure) {
      pressure = fraction;
      dominant = source;
    }
  }
  const { pressureSoft: soft, pressureHard: hard } = config;
  const factor = pressure <= soft ? 1 : pressure >= hard ? 0 : (hard - pressure) / (hard - soft);
  const throttle = Math.round(factor * 1000) / 1000;
  return { pressure, dominant, throttle_factor: throttle, pause_ms: Math.round((1 - throttle) * config.throttleMaxDelayMs) };
}

/** What the hive worker and the goal dispatcher consult (a fake in unit tests). */
export abstract class PressureGauge {
  /** Waits the pause the current pressure calls for (resolves early when the signal aborts). */
  abstract pace(signal?: AbortSignal): Promise<number>;
}

const GPU_CACHE_MS = 5000;

@Injectable()
export class SystemPressureGauge extends PressureGauge implements OnModuleInit, OnModuleDestroy {
  private readonly engine: EngineConfig;
  private previous: CpuTimes | null = null;
  private busy: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private gpus: { at: number; survey: Promise<GpuSurvey> } | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    super();
    this.engine = config.engine;
  }

  onModuleInit(): void {
    void this.sample();
    this.timer = setInterval(() => void this.sample(), this.engine.cpuSampleMs);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Takes a CPU sample: the busy fraction since the previous one. */
  async sample(): Promise<void> {
    const times = await readCpuTimes();
    if (times === null) return;
    if (this.previous !== null) this.busy = cpuBusyFraction(this.previous, times) ?? this.busy;
    this.previous = times;
  }

  /** The GPUs, surveyed again when the last survey is older than `maxAgeMs` (default: a few seconds). */
  gpuSurvey(maxAgeMs = GPU_CACHE_MS): Promise<GpuSurvey> {
    const now = Date.now();
    if (this.gpus === null || now - this.gpus.at > maxAgeMs) this.gpus = { at: now, survey: surveyGpus(this.engine.nvidiaSmi) };
    return this.gpus.survey;
  }

  async reading(): Promise<PressureReading> {
    const [ram, disk, gpus] = await Promise.all([readRam(), readDisk(this.config.dataDir), this.gpuSurvey()]);
    const vram = vramFraction(gpus.gpus);
    const throttle = throttleFor({ ram: ram?.used_fraction, cpu: this.busy, disk: disk?.used_fraction, vram }, this.engine);
    return {
      sampled_at: new Date().toISOString(),
      ram,
      cpu: { cores: cpus().length, busy_fraction: this.busy, load_average: loadavg().map((n) => Math.round(n * 100) / 100), sample_interval_ms: this.engine.cpuSampleMs },
      disk,
      vram: { ...gpus, used_fraction: vram },
      ...throttle,
      thresholds: { soft: this.engine.pressureSoft, hard: this.engine.pressureHard, max_delay_ms: this.engine.throttleMaxDelayMs },
    };
  }

  async pace(signal?: AbortSignal): Promise<number> {
    if (this.engine.throttleMaxDelayMs === 0) return 0;
    const { pause_ms } = await this.reading();
    if (pause_ms <= 0 || signal?.aborted) return 0;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, pause_ms);
      function done(): void {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    });
    return pause_ms;
  }
}
