/**
 * Command handlers of the engine context. The runtime tools' handlers do the
 * node-side work (locating a program, spawning, ending a process) under the
 * tool's lock, then record the outcome through the tool's decider and reply
 * with the tool's view.
 */
import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { modelLifecycleDecider, modelStreamId } from '../../aggregates/engine/model-lifecycle';
import { runtimeToolDecider, runtimeToolStreamId } from '../../aggregates/engine/runtime-tool';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { CommandExecutor } from '../common/command-executor';
import { EvictModel, OffloadModel, SetModelPriority, SetUpTool, StartTool, StopTool, UnloadTool } from './engine.commands';
import { EngineLifecycleQueries, type ModelView } from './engine-lifecycle.queries';
import { EngineToolsQueries, type ToolView } from './engine-tools.queries';
import { EngineToolsRuntime } from './engine-tools.runtime';
import { resolveCommand, ToolCatalogue } from './tool-manifest';
import { ToolSupervisor } from './tool-supervisor';

@CommandHandler(SetUpTool)
export class SetUpToolHandler implements ICommandHandler<SetUpTool> {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly runtime: EngineToolsRuntime,
    private readonly queries: EngineToolsQueries,
    private readonly catalogue: ToolCatalogue,
  ) {}

  execute({ payload, context }: SetUpTool): Promise<ToolView> {
    const tool = this.catalogue.of(payload.tool);
    return this.runtime.locked(tool.name, async () => {
      const located = await this.runtime.locate(tool);
      await this.runtime.record(
        tool.name,
        { kind: 'setUp', tool: tool.name, nodeId: this.config.nodeId, source: tool.install.source, programPath: located.path, version: located.version, installedNow: located.installedNow },
        context,
      );
      return this.queries.tool(tool);
    });
  }
}

@CommandHandler(StartTool)
export class StartToolHandler implements ICommandHandler<StartTool> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly runtime: EngineToolsRuntime,
    private readonly supervisor: ToolSupervisor,
    private readonly queries: EngineToolsQueries,
    private readonly catalogue: ToolCatalogue,
  ) {}

  execute({ payload, context }: StartTool): Promise<ToolView> {
    const tool = this.catalogue.of(payload.tool);
    return this.runtime.locked(tool.name, async () => {
      const { state } = await this.executor.load(runtimeToolDecider, runtimeToolStreamId(tool.name));
      if (state.status === 'none') throw new DomainError('conflict', `tool ${tool.name} is not set up: POST /api/tools/${tool.name}/setup first`);
      if (state.status === 'running') return this.queries.tool(tool); // already running: the same view, nothing recorded
      // a crash waiting for its restart: the operator's start replaces the pending restart
      await this.supervisor.stop(tool.name);
      const program = state.programPath;
      const { state: model } = await this.executor.load(modelLifecycleDecider, modelStreamId(tool.model));
      const launched = await this.supervisor.launch(tool, (port) =>
        resolveCommand(tool, { node: process.execPath, toolsDir: this.runtime.toolsDir, program, port, placement: model.placement }),
      );
      try {
        await this.runtime.recordStart(tool.name, launched, false, context);
      } catch (error) {
        await this.supervisor.stop(tool.name);
        throw error;
      }
      return this.queries.tool(tool);
    });
  }
}

@CommandHandler(StopTool)
export class StopToolHandler implements ICommandHandler<StopTool> {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly runtime: EngineToolsRuntime,
    private readonly supervisor: ToolSupervisor,
    private readonly queries: EngineToolsQueries,
    private readonly catalogue: ToolCatalogue,
  ) {}

  execute({ payload, context }: StopTool): Promise<ToolView> {
    const tool = this.catalogue.of(payload.tool);
    return this.runtime.locked(tool.name, async () => {
      await this.supervisor.stop(tool.name);
      await this.runtime.record(tool.name, { kind: 'stop', tool: tool.name, nodeId: this.config.nodeId, reason: 'operator' }, context);
      return this.queries.tool(tool);
    });
  }
}

@CommandHandler(UnloadTool)
export class UnloadToolHandler implements ICommandHandler<UnloadTool> {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly runtime: EngineToolsRuntime,
    private readonly supervisor: ToolSupervisor,
    private readonly queries: EngineToolsQueries,
    private readonly catalogue: ToolCatalogue,
  ) {}

  execute({ payload, context }: UnloadTool): Promise<ToolView> {
    const tool = this.catalogue.of(payload.tool);
    return this.runtime.locked(tool.name, async () => {
      await this.supervisor.stop(tool.name);
      await this.runtime.record(
        tool.name,
        { kind: 'unload', tool: tool.name, nodeId: this.config.nodeId, reason: payload.reason, memoryMb: tool.estimate.memory_mb, vramMb: tool.estimate.vram_mb },
        context,
      );
      return this.queries.tool(tool);
    });
  }
}

@CommandHandler(SetModelPriority)
export class SetModelPriorityHandler implements ICommandHandler<SetModelPriority> {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly executor: CommandExecutor,
    private readonly lifecycle: EngineLifecycleQueries,
  ) {}

  async execute({ payload, context }: SetModelPriority): Promise<ModelView> {
    const model = await this.lifecycle.model(payload.model);
    await this.executor.execute(
      modelLifecycleDecider,
      modelStreamId(model.model),
      { kind: 'setPriority', model: model.model, nodeId: this.config.nodeId, priority: payload.priority as never, by: context.actor },
      context,
    );
    return this.lifecycle.model(model.model);
  }
}

/**
 * Offload: only a model this node runs on the GPU can move (a tool with
 * `cpu_args` and a VRAM estimate); a model of the LLM server is that
 * server's to place. A running tool restarts on the CPU at once.
 */
@CommandHandler(OffloadModel)
export class OffloadModelHandler implements ICommandHandler<OffloadModel> {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly executor: CommandExecutor,
    private readonly lifecycle: EngineLifecycleQueries,
    private readonly catalogue: ToolCatalogue,
    private readonly commands: CommandBus,
  ) {}

  async execute({ payload, context }: OffloadModel): Promise<ModelView & { restarted: boolean }> {
    const model = await this.lifecycle.model(payload.model);
    const tool = model.tool === null ? undefined : this.catalogue.find(model.tool);
    if (model.source === 'llm' || !tool) {
      throw new DomainError('conflict', this.config.llm.provider === 'openai' ? `model ${model.model} is served by the LLM server at ${this.config.llm.baseUrl}, not by this node: place it there` : `model ${model.model} is the offline engine: it uses no GPU`);
    }
    if (model.placement === 'cpu') return { ...model, restarted: false };
    if (tool.estimate.vram_mb === 0) throw new DomainError('conflict', `model ${model.model} does not use the GPU: nothing to offload`);
    if (tool.cpu_args === undefined) throw new DomainError('conflict', `tool ${tool.name} cannot run model ${model.model} on the CPU (its manifest has no cpu_args)`);
    await this.executor.execute(modelLifecycleDecider, modelStreamId(model.model), { kind: 'offload', model: model.model, nodeId: this.config.nodeId, by: context.actor }, context);
    let restarted = false;
    if (model.loaded === true) {
      await this.commands.execute(new StopTool({ tool: tool.name }, context));
      await this.commands.execute(new StartTool({ tool: tool.name }, context));
      restarted = true;
    }
    return { ...(await this.lifecycle.model(model.model)), restarted };
  }
}

@CommandHandler(EvictModel)
export class EvictModelHandler implements ICommandHandler<EvictModel> {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly executor: CommandExecutor,
    private readonly lifecycle: EngineLifecycleQueries,
    private readonly catalogue: ToolCatalogue,
    private readonly commands: CommandBus,
  ) {}

  async execute({ payload, context }: EvictModel): Promise<ModelView> {
    const model = await this.lifecycle.model(payload.model);
    const tool = model.tool === null ? undefined : this.catalogue.find(model.tool);
    if (!tool) throw new DomainError('conflict', `model ${model.model} is not run by a tool of this node`);
    await this.executor.execute(
      modelLifecycleDecider,
      modelStreamId(model.model),
      { kind: 'evict', model: model.model, nodeId: this.config.nodeId, tool: tool.name, vramPressure: payload.vramPressure, threshold: payload.threshold, freedVramMb: model.vram_held_mb },
      context,
    );
    await this.commands.execute(new UnloadTool({ tool: tool.name, reason: 'eviction' }, context));
    return this.lifecycle.model(model.model);
  }
}

export const ENGINE_COMMAND_HANDLERS = [
  SetUpToolHandler,
  StartToolHandler,
  StopToolHandler,
  UnloadToolHandler,
  SetModelPriorityHandler,
  OffloadModelHandler,
  EvictModelHandler,
];
