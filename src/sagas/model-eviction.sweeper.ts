/**
 * The model lifecycle's eviction policy at work (docs/api.md, "Model
 * lifecycle"): every ENGINE_EVICTION_SWEEP_MS it measures VRAM pressure (the
 * fullest GPU, nvidia-smi) and, past ENGINE_EVICTION_THRESHOLD, unloads the
 * one model the policy picks (lowest priority first, never a pinned one:
 * `aggregates/engine/eviction-policy.ts`), recorded as ModelEvicted and the
 * tool's ToolUnloaded. One model per sweep: the next sweep measures again.
 * Background only (an unref'd timer), where the background work runs; one
 * sweep at a time. A node without a GPU has no VRAM pressure and evicts nothing.
 */
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { PlatformLifecycle } from '../infrastructure/platform-lifecycle';
import { EvictModel } from '../modules/engine/engine.commands';
import { EngineLifecycleQueries } from '../modules/engine/engine-lifecycle.queries';

@Injectable()
export class ModelEvictionSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ModelEviction');
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<string | null> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queries: EngineLifecycleQueries,
    private readonly commands: CommandBus,
    private readonly lifecycle: PlatformLifecycle,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.lifecycle.writesInBackground()) return;
    this.timer = setInterval(() => void this.sweep().catch((error: unknown) => this.logger.warn(`sweep failed: ${error instanceof Error ? error.message : String(error)}`)), this.config.engine.evictionSweepMs);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** One round of the policy: the model it unloaded, or null. Calls while one runs share it. */
  sweep(): Promise<string | null> {
    this.sweeping ??= this.sweepNow().finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  private async sweepNow(): Promise<string | null> {
    const { pressure, threshold, model } = await this.queries.evictionNow();
    if (model === null || pressure === null) return null;
    this.logger.warn(`VRAM pressure ${pressure} is past ${threshold}: evicting ${model.model} (${model.priority})`);
    await this.commands.execute(new EvictModel({ model: model.model, vramPressure: pressure, threshold }, { actor: 'system:model-eviction', correlationId: randomUUID() }));
    return model.model;
  }
}
