/**
 * Reads of VRAM and the model lifecycle: the GPUs as nvidia-smi reports
 * them, every model this node knows (from its tools and its LLM
 * configuration) with its priority and placement (the `engine_models` read
 * model) and whether it is loaded (the tools' read model), VRAM pressure
 * against the eviction threshold, and hive hints from the compute settings.
 */
import { Inject, Injectable } from '@nestjs/common';
import { chooseEviction, evictionOrder } from '../../aggregates/engine/eviction-policy';
import { DEFAULT_PRIORITY, type ModelPriority } from '../../aggregates/engine/model-lifecycle';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { ENGINE_MODELS, type EngineModelDoc } from '../../projections/engine/engine-models.projection';
import { ENGINE_TOOLS, type EngineToolDoc } from '../../projections/engine/engine-tools.projection';
import { ComputeSettingsQueries } from '../compute/compute-settings.queries';
import { hiveRefusal } from '../hive/hive-policy';
import { SystemPressureGauge } from './pressure-gauge';
import type { GpuSurvey } from './system-readings';
import { vramFraction } from './system-readings';
import { ToolCatalogue } from './tool-manifest';

export const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$/;

export interface ModelView {
  model: string;
  /** `tool`: a runtime tool of this node loads it; `llm`: the LLM port serves it (an external server, or the offline engine) */
  source: 'tool' | 'llm';
  tool: string | null;
  /** this node starts and stops it (a tool); the LLM server's models are managed there */
  managed: boolean;
  /** running now; null where this node cannot know (a model of an external LLM server) */
  loaded: boolean | null;
  priority: ModelPriority;
  placement: 'gpu' | 'cpu';
  /** the tool can run it on the CPU (`cpu_args`) and it holds VRAM on the GPU */
  offloadable: boolean;
  estimate: { memory_mb: number; vram_mb: number };
  /** the VRAM it holds by estimate: loaded on the GPU → its estimate, else 0 */
  vram_held_mb: number;
  priority_changed_at: string | null;
  priority_changed_by: string | null;
  offloaded_at: string | null;
  evictions: number;
  last_eviction: EngineModelDoc['last_eviction'];
}

export interface LifecycleView {
  node_id: string;
  models: ModelView[];
  vram_pressure: { gpu_available: boolean; used_fraction: number | null; threshold: number; over_threshold: boolean; estimated_held_mb: number };
  eviction: { threshold: number; order: string[]; next: string | null };
  hive_hints: HiveHints;
}

export interface HiveHints {
  takes_hive_work: boolean;
  refusal: string | null;
  hive_compute_policy: string;
  max_hive_gpu_pct: number;
  offered_gpu_hours_per_day: number;
  /** total VRAM × max_hive_gpu_pct; 0 without a GPU */
  vram_budget_mb: number;
  /** the budget minus the VRAM the pinned and hot models hold (they stay for this node's own work) */
  vram_available_for_hive_mb: number;
  /** what peers could ask of this node: the LLM port's model, and the loaded tools' models that are not pinned */
  servable_models: string[];
}

@Injectable()
export class EngineLifecycleQueries {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly catalogue: ToolCatalogue,
    private readonly gauge: SystemPressureGauge,
    private readonly settings: ComputeSettingsQueries,
  ) {}

  async vram(): Promise<GpuSurvey & { used_fraction: number | null; totals: { total_mb: number; used_mb: number; free_mb: number }; models: ModelView[] }> {
    const survey = await this.gauge.gpuSurvey();
    const total = survey.gpus.reduce((sum, gpu) => sum + gpu.memory_total_mb, 0);
    const used = survey.gpus.reduce((sum, gpu) => sum + gpu.memory_used_mb, 0);
    const models = (await this.models()).filter((model) => model.estimate.vram_mb > 0 || model.vram_held_mb > 0);
    return { ...survey, used_fraction: vramFraction(survey.gpus), totals: { total_mb: total, used_mb: used, free_mb: total - used }, models };
  }

  async lifecycle(): Promise<LifecycleView> {
    const [survey, models, merged] = await Promise.all([this.gauge.gpuSurvey(), this.models(), this.settings.merged()]);
    const pressure = vramFraction(survey.gpus);
    const threshold = this.config.engine.evictionThreshold;
    const candidates = models.filter((m) => m.source === 'tool').map((m) => ({ ...m, tool: m.tool ?? m.model, loaded: m.loaded === true, vram_mb: m.estimate.vram_mb }));
    const settings = merged.values;
    const refusal = hiveRefusal(settings);
    const totalVram = survey.gpus.reduce((sum, gpu) => sum + gpu.memory_total_mb, 0);
    const budget = Math.floor((totalVram * settings.max_hive_gpu_pct) / 100);
    const reserved = models.filter((m) => m.priority === 'pinned' || m.priority === 'hot').reduce((sum, m) => sum + m.vram_held_mb, 0);
    return {
      node_id: this.config.nodeId,
      models,
      vram_pressure: {
        gpu_available: survey.gpu_available,
        used_fraction: pressure,
        threshold,
        over_threshold: pressure !== null && pressure > threshold,
        estimated_held_mb: models.reduce((sum, m) => sum + m.vram_held_mb, 0),
      },
      eviction: { threshold, order: evictionOrder(candidates).map((m) => m.model), next: chooseEviction(candidates, pressure, threshold)?.model ?? null },
      hive_hints: {
        takes_hive_work: refusal === null,
        refusal,
        hive_compute_policy: settings.hive_compute_policy,
        max_hive_gpu_pct: settings.max_hive_gpu_pct,
        offered_gpu_hours_per_day: settings.offered_gpu_hours_per_day,
        vram_budget_mb: budget,
        vram_available_for_hive_mb: Math.max(0, budget - reserved),
        servable_models:
          refusal !== null
            ? []
            : models.filter((m) => (m.source === 'llm' ? true : m.loaded === true && m.priority !== 'pinned')).map((m) => m.model),
      },
    };
  }

  /** The eviction policy's view of this moment (a fresh GPU survey): the VRAM pressure and the model to unload (null: none). */
  async evictionNow(): Promise<{ pressure: number | null; threshold: number; model: ModelView | null }> {
    const [survey, models] = await Promise.all([this.gauge.gpuSurvey(0), this.models()]);
    const pressure = vramFraction(survey.gpus);
    const threshold = this.config.engine.evictionThreshold;
    const candidates = models.filter((m) => m.source === 'tool').map((m) => ({ ...m, tool: m.tool ?? m.model, loaded: m.loaded === true, vram_mb: m.estimate.vram_mb }));
    const chosen = chooseEviction(candidates, pressure, threshold);
    return { pressure, threshold, model: chosen ? (models.find((m) => m.model === chosen.model) ?? null) : null };
  }

  /** One model of this node: 400 for a malformed name, 404 for one it does not know. */
  async model(name: string): Promise<ModelView> {
    if (!MODEL_NAME.test(name)) throw new DomainError('invalid', 'model_name must be 1-128 letters, digits or . _ : / -, starting with a letter or digit');
    const models = await this.models();
    const found = models.find((m) => m.model === name);
    if (!found) throw new DomainError('not_found', `no model named ${name} on this node (known: ${models.map((m) => m.model).join(', ')})`);
    return found;
  }

  async models(): Promise<ModelView[]> {
    const [toolDocs, modelDocs] = await Promise.all([
      this.store.collection<EngineToolDoc>(ENGINE_TOOLS).find({}),
      this.store.collection<EngineModelDoc>(ENGINE_MODELS).find({}),
    ]);
    const lifecycle = (model: string) => modelDocs.find((doc) => doc._id === model) ?? null;
    const view = (model: string, base: Pick<ModelView, 'source' | 'tool' | 'managed' | 'loaded' | 'estimate'> & { cpuCapable: boolean }): ModelView => {
      const doc = lifecycle(model);
      const placement = doc?.placement ?? 'gpu';
      return {
        model,
        source: base.source,
        tool: base.tool,
        managed: base.managed,
        loaded: base.loaded,
        priority: (doc?.priority as ModelPriority | undefined) ?? DEFAULT_PRIORITY,
        placement,
        offloadable: base.cpuCapable && base.estimate.vram_mb > 0 && placement === 'gpu',
        estimate: base.estimate,
        vram_held_mb: base.loaded === true && placement === 'gpu' ? base.estimate.vram_mb : 0,
        priority_changed_at: doc?.priority_changed_at ?? null,
        priority_changed_by: doc?.priority_changed_by ?? null,
        offloaded_at: doc?.offloaded_at ?? null,
        evictions: doc?.evictions ?? 0,
        last_eviction: doc?.last_eviction ?? null,
      };
    };
    const tools = this.catalogue.tools.map((tool) =>
      view(tool.model, {
        source: 'tool',
        tool: tool.name,
        managed: true,
        loaded: toolDocs.find((doc) => doc._id === tool.name)?.status === 'running',
        estimate: tool.estimate,
        cpuCapable: tool.cpu_args !== undefined,
      }),
    );
    const llm = this.config.llm;
    const llmModels = llm.provider === 'openai' ? [...new Set([llm.model, llm.fastModel])] : ['offline'];
    const zero = { memory_mb: 0, vram_mb: 0 };
    const served = llmModels.map((model) =>
      view(model, { source: 'llm', tool: null, managed: false, loaded: llm.provider === 'offline' ? true : null, estimate: zero, cpuCapable: false }),
    );
    return [...tools, ...served.filter((m) => !tools.some((t) => t.model === m.model))];
  }
}
