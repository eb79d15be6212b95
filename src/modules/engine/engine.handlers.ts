/**
 * Command handlers of the engine context. The runtime tools' handlers do the
 * node-side work (locating a program, spawning, ending a process) under the
 * tool's lock, then record the outcome through the tool's decider and reply
 * with the tool's view.
 */
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { runtimeToolDecider, runtimeToolStreamId } from '../../aggregates/engine/runtime-tool';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { CommandExecutor } from '../common/command-executor';
import { SetUpTool, StartTool, StopTool, UnloadTool } from './engine.commands';
import { EngineToolsQueries, type ToolView } from './engine-tools.queries';
import { EngineToolsRuntime } from './engine-tools.runtime';
import { manifestOf, resolveCommand, type ToolManifest } from './tool-manifest';
import { ToolSupervisor } from './tool-supervisor';

function manifest(tool: string): ToolManifest {
  const found = manifestOf(tool);
  if (!found) throw new DomainError('not_found', `no tool named ${tool} in the manifest`);
  return found;
}

@CommandHandler(SetUpTool)
export class SetUpToolHandler implements ICommandHandler<SetUpTool> {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly runtime: EngineToolsRuntime,
    private readonly queries: EngineToolsQueries,
  ) {}

  execute({ payload, context }: SetUpTool): Promise<ToolView> {
    const tool = manifest(payload.tool);
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
  ) {}

  execute({ payload, context }: StartTool): Promise<ToolView> {
    const tool = manifest(payload.tool);
    return this.runtime.locked(tool.name, async () => {
      const { state } = await this.executor.load(runtimeToolDecider, runtimeToolStreamId(tool.name));
      if (state.status === 'none') throw new DomainError('conflict', `tool ${tool.name} is not set up: POST /api/tools/${tool.name}/setup first`);
      if (state.status === 'running') return this.queries.tool(tool); // already running: the same view, nothing recorded
      // a crash waiting for its restart: the operator's start replaces the pending restart
      await this.supervisor.stop(tool.name);
      const program = state.programPath;
      const launched = await this.supervisor.launch(tool, (port) => resolveCommand(tool, { node: process.execPath, toolsDir: this.runtime.toolsDir, program, port }));
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
  ) {}

  execute({ payload, context }: StopTool): Promise<ToolView> {
    const tool = manifest(payload.tool);
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
  ) {}

  execute({ payload, context }: UnloadTool): Promise<ToolView> {
    const tool = manifest(payload.tool);
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

export const ENGINE_COMMAND_HANDLERS = [SetUpToolHandler, StartToolHandler, StopToolHandler, UnloadToolHandler];
