/**
 * Command handlers of the engine context. The runtime tools' handlers do the
 * node-side work (locating a program, spawning, ending a process) under the
 * tool's lock, then record the outcome through the tool's decider and reply
 * with the tool's view.
 */
import { leftIn } from '../../aggregates/shared/decider';
import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { codingRunDecider, codingRunStreamId, codingToolDecider, codingToolStreamId } from '../../aggregates/engine/coding';
import { modelLifecycleDecider, modelStreamId } from '../../aggregates/engine/model-lifecycle';
import { skillDecider, skillStreamId, type SkillSource } from '../../aggregates/engine/skill';
import { type RuntimeToolCommand, runtimeToolDecider, runtimeToolStreamId } from '../../aggregates/engine/runtime-tool';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { LLM, type LanguageModel } from '../../infrastructure/llm/llm.port';
import { type CommandContext, CommandExecutor } from '../common/command-executor';
import { KeyedMutex } from '../common/keyed-mutex';
import { isExecutable, plainEnv, runArgv, versionOf } from './argv-runner';
import { INSTALLABLE_CODING_TOOLS } from './coding-clis';
import { codeOf, runInSandbox } from './coding-sandbox';
import {
  type CodingInstallView,
  type CodingRunView,
  DiscoverGithubSkills,
  type DiscoveredSkill,
  DiscoverLocalSkills,
  type DiscoveryView,
  EvictModel,
  IngestSkill,
  RemoveSkill,
  type SkillIngestView,
  ExecuteCodingTask,
  InstallCodingTool,
  OffloadModel,
  SetModelPriority,
  SetUpTool,
  StartTool,
  StopTool,
  UnloadTool,
} from './engine.commands';
import { EngineCodingQueries } from './engine-coding.queries';
import { parseSkillFile } from './skill-file';
import { findGithubSkillFiles, findLocalSkillFiles, type FoundSkillFile, readSkillFolder } from './skill-sources';
import { EngineLifecycleQueries, type ModelView } from './engine-lifecycle.queries';
import type { ToolView } from './engine-tools.queries';
import { EngineToolsRuntime, npmInstallArgv } from './engine-tools.runtime';
import { resolveCommand, ToolCatalogue, type ToolManifest } from './tool-manifest';
import { ToolSupervisor } from './tool-supervisor';

@CommandHandler(SetUpTool)
export class SetUpToolHandler implements ICommandHandler<SetUpTool> {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly runtime: EngineToolsRuntime,
  ) {}

  execute({ payload, context }: SetUpTool): Promise<ToolView> {
    return this.runtime.act(payload.tool, async (tool) => {
      const located = await this.runtime.locate(tool);
      const { nodeId } = this.config;
      const { path: programPath, version, installedNow } = located;
      await this.runtime.record(tool.name, { kind: 'setUp', tool: tool.name, nodeId, source: tool.install.source, programPath, version, installedNow }, context);
    });
  }
}

@CommandHandler(StartTool)
export class StartToolHandler implements ICommandHandler<StartTool> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly runtime: EngineToolsRuntime,
    private readonly supervisor: ToolSupervisor,
  ) {}

  execute({ payload, context }: StartTool): Promise<ToolView> {
    return this.runtime.act(payload.tool, async (tool) => {
      const { state } = await this.executor.load(runtimeToolDecider, runtimeToolStreamId(tool.name));
      if (state.status === 'none') throw new DomainError('conflict', `tool ${tool.name} is not set up: POST /api/tools/${tool.name}/setup first`);
      if (state.status === 'running') return; // already running: the same view, nothing recorded
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
    });
  }
}

/** Stop and unload: end the tool's process, then record what the command says. */
abstract class EndToolHandler<C extends StopTool | UnloadTool> {
  constructor(
    @Inject(APP_CONFIG) protected readonly config: AppConfig,
    private readonly runtime: EngineToolsRuntime,
    private readonly supervisor: ToolSupervisor,
  ) {}

  protected abstract recorded(tool: ToolManifest, command: C): RuntimeToolCommand;

  execute(command: C): Promise<ToolView> {
    return this.runtime.act(command.payload.tool, async (tool) => {
      await this.supervisor.stop(tool.name);
      await this.runtime.record(tool.name, this.recorded(tool, command), command.context);
    });
  }
}

@CommandHandler(StopTool)
export class StopToolHandler extends EndToolHandler<StopTool> {
  protected recorded(tool: ToolManifest): RuntimeToolCommand {
    return { kind: 'stop', tool: tool.name, nodeId: this.config.nodeId, reason: 'operator' };
  }
}

@CommandHandler(UnloadTool)
export class UnloadToolHandler extends EndToolHandler<UnloadTool> {
  protected recorded(tool: ToolManifest, { payload }: UnloadTool): RuntimeToolCommand {
    return { kind: 'unload', tool: tool.name, nodeId: this.config.nodeId, reason: payload.reason, memoryMb: tool.estimate.memory_mb, vramMb: tool.estimate.vram_mb };
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

export const NO_MODEL_FOR_CODING =
  'No language model is configured on this node (LLM_PROVIDER=offline): the built-in executor needs one to write the code. Configure LLM_BASE_URL and LLM_MODEL, or send the program in `code`.';

const CODING_INSTRUCTIONS = [
  'You write one Node.js program (CommonJS, no packages beyond Node’s own modules) that does the task below and prints its result to stdout.',
  'It runs in an empty folder with no network and no other files; exit with a non-zero code if the task cannot be done.',
  'Answer with the program only, in one ```js block.',
].join(' ');

/**
 * /coding/execute: the built-in executor. The code is the task's own
 * (`code`) or the LLM port's answer; it runs in the sandbox
 * (coding-sandbox.ts) and the run is recorded with its outcome.
 */
@CommandHandler(ExecuteCodingTask)
export class ExecuteCodingTaskHandler implements ICommandHandler<ExecuteCodingTask> {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LLM) private readonly llm: LanguageModel,
    private readonly executor: CommandExecutor,
  ) {}

  async execute({ payload, context }: ExecuteCodingTask): Promise<CodingRunView> {
    if (payload.preferredTool !== null && payload.preferredTool !== 'builtin') {
      throw new DomainError('conflict', `preferred_tool ${payload.preferredTool} is not an executor of this node: tasks run with builtin (the LLM port writes JavaScript, the sandbox runs it with Node)`);
    }
    let code = payload.code;
    let model: string | null = null;
    if (code === null) {
      if (this.llm.kind === 'offline') throw new DomainError('unavailable', NO_MODEL_FOR_CODING);
      const answer = await this.llm.complete({
        messages: [
          { role: 'system', content: CODING_INSTRUCTIONS },
          { role: 'user', content: payload.task },
        ],
        model: payload.model ?? undefined,
        correlationId: context.correlationId,
      });
      code = codeOf(answer.content);
      model = answer.model;
    }
    const timeoutMs = Math.min(payload.timeoutMs ?? this.config.engine.codingTimeoutMs, this.config.engine.codingTimeoutMs);
    const result = await runInSandbox(code, { timeoutMs, outputCap: this.config.engine.codingOutputCap });
    const status = result.timedOut ? 'timed_out' : result.exitCode === 0 ? 'passed' : 'failed';
    const runId = randomUUID();
    const codeSource = payload.code === null ? 'model' : 'client';
    await this.executor.execute(
      codingRunDecider,
      codingRunStreamId(runId),
      {
        kind: 'record',
        run_id: runId,
        user_id: payload.userId,
        tool: 'builtin',
        task_type: payload.taskType,
        model,
        code_source: codeSource,
        status,
        exit_code: result.exitCode,
        signal: result.signal,
        duration_ms: result.durationMs,
        truncated: result.truncated,
        code_chars: code.length,
      },
      context,
      { newStream: true },
    );
    return {
      run_id: runId,
      tool: 'builtin',
      task_type: payload.taskType,
      status,
      exit_code: result.exitCode,
      signal: result.signal,
      stdout: result.stdout,
      stderr: result.spawnError ?? result.stderr,
      truncated: result.truncated,
      duration_ms: result.durationMs,
      timeout_ms: timeoutMs,
      model,
      code_source: codeSource,
      code,
    };
  }
}

/**
 * /coding/install: an allow-listed CLI, with npm into DATA_DIR/engine/npm
 * (argv array; the package is the allow-list's, not the request's). Each
 * attempt is recorded, failed or not; one install of a tool at a time.
 */
@CommandHandler(InstallCodingTool)
export class InstallCodingToolHandler implements ICommandHandler<InstallCodingTool> {
  private readonly locks = new KeyedMutex();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly executor: CommandExecutor,
    private readonly coding: EngineCodingQueries,
  ) {}

  execute({ payload, context }: InstallCodingTool): Promise<CodingInstallView> {
    const pkg = INSTALLABLE_CODING_TOOLS[payload.tool];
    if (pkg === undefined) throw new DomainError('invalid', `tool_name must be one of ${Object.keys(INSTALLABLE_CODING_TOOLS).join(', ')}`);
    const npmDir = join(this.config.dataDir, 'engine', 'npm');
    if (!this.config.engine.allowInstall) {
      throw new DomainError('unavailable', `installing coding tools is off on this node: set ENGINE_ALLOW_INSTALL=1 to let it run npm install --prefix ${npmDir} ${pkg}`);
    }
    return this.locks.run(payload.tool, async () => {
      await mkdir(npmDir, { recursive: true });
      const result = await runArgv(npmInstallArgv(pkg, npmDir, this.config.engine.npmRegistry), {
        timeoutMs: 10 * 60_000,
        env: plainEnv({ npm_config_cache: join(this.config.dataDir, 'engine', 'npm-cache'), npm_config_update_notifier: 'false' }),
      });
      const path = join(npmDir, 'node_modules', '.bin', payload.tool);
      const installed = result.exitCode === 0 && isExecutable(path);
      const error = installed
        ? null
        : (result.spawnError ?? (result.timedOut ? 'npm timed out' : `npm exited with ${result.exitCode}: ${result.stderr.trim().split('\n').slice(-3).join(' | ')}`)).slice(0, 1000);
      const version = installed ? await versionOf(path) : null;
      await this.executor.execute(
        codingToolDecider,
        codingToolStreamId(payload.tool),
        { kind: 'recordInstall', tool: payload.tool, package: pkg, node_id: this.config.nodeId, outcome: installed ? 'installed' : 'failed', version, error, installed_by: context.actor, duration_ms: result.durationMs },
        context,
      );
      this.coding.forgetDetection();
      if (!installed) throw new DomainError('unavailable', `installing ${payload.tool} (${pkg}) failed: ${error}`);
      return { tool: payload.tool, package: pkg, outcome: 'installed', version, path, duration_ms: result.durationMs };
    });
  }
}

/** Names the skill routes use as path segments: a skill may not take them. */
export const RESERVED_SKILL_NAMES = ['list', 'ingest', 'discover'];

/** Records a parsed SKILL.md; the shared step of ingest and discovery. */
/** Records a SKILL.md; the reply comes from the skill's state (an unchanged ingestion racing the first one must not wait for the read model). */
async function recordSkill(executor: CommandExecutor, text: string, source: SkillSource, context: CommandContext): Promise<SkillIngestView> {
  const skill = parseSkillFile(text);
  if (RESERVED_SKILL_NAMES.includes(skill.name)) throw new DomainError('invalid', `name ${skill.name} is reserved (${RESERVED_SKILL_NAMES.join(', ')})`);
  const { state, events } = await executor.execute(
    skillDecider,
    skillStreamId(skill.name),
    { kind: 'ingest', name: skill.name, description: skill.description, instructions: skill.instructions, sha256: skill.sha256, source, by: context.actor },
    context,
  );
  const { ingested } = leftIn(state, 'active');
  return { name: ingested.name, description: ingested.description, version: ingested.version, source: ingested.source, sha256: ingested.sha256, ingested_at: ingested.ingested_at, ingested_by: ingested.ingested_by, changed: events.length > 0 };
}

@CommandHandler(IngestSkill)
export class IngestSkillHandler implements ICommandHandler<IngestSkill> {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly executor: CommandExecutor,
  ) {}

  async execute({ payload, context }: IngestSkill): Promise<SkillIngestView> {
    if ('skillMd' in payload) return recordSkill(this.executor, payload.skillMd, { kind: 'upload' }, context);
    const file = await readSkillFolder(payload.folder, this.config.engine.skillsDirs);
    return recordSkill(this.executor, file.text, { kind: 'local', path: file.location }, context);
  }
}

@CommandHandler(RemoveSkill)
export class RemoveSkillHandler implements ICommandHandler<RemoveSkill> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: RemoveSkill): Promise<{ removed: true; name: string; version: number }> {
    const { events } = await this.executor.execute(skillDecider, skillStreamId(payload.name), { kind: 'remove', name: payload.name, by: context.actor }, context);
    const removed = events[0];
    return { removed: true, name: payload.name, version: removed?.type === 'SkillRemoved' ? removed.data.version : 0 };
  }
}

/** Each found SKILL.md parsed (and with `ingest`, recorded when valid): the discovery's report. */
async function discover(
  files: readonly FoundSkillFile[],
  ingest: boolean,
  sourceOf: (file: FoundSkillFile) => SkillSource,
  executor: CommandExecutor,
  context: CommandContext,
): Promise<DiscoveredSkill[]> {
  const skills: DiscoveredSkill[] = [];
  for (const file of files) {
    try {
      const parsed = parseSkillFile(file.text);
      const found: DiscoveredSkill = { location: file.location, name: parsed.name, description: parsed.description, valid: true, problem: null, ingested: null };
      if (ingest) found.ingested = (await recordSkill(executor, file.text, sourceOf(file), context)).changed;
      skills.push(found);
    } catch (error) {
      if (!(error instanceof DomainError) || error.kind !== 'invalid') throw error;
      skills.push({ location: file.location, name: null, description: null, valid: false, problem: error.message, ingested: ingest ? false : null });
    }
  }
  return skills;
}

const report = (source: Record<string, unknown>, skills: DiscoveredSkill[]): DiscoveryView => ({
  source,
  found: skills.length,
  valid: skills.filter((s) => s.valid).length,
  ingested: skills.filter((s) => s.ingested === true).length,
  skills,
});

@CommandHandler(DiscoverLocalSkills)
export class DiscoverLocalSkillsHandler implements ICommandHandler<DiscoverLocalSkills> {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly executor: CommandExecutor,
  ) {}

  async execute({ payload, context }: DiscoverLocalSkills): Promise<DiscoveryView> {
    const dirs = this.config.engine.skillsDirs;
    if (dirs.length === 0) throw new DomainError('conflict', 'no skill folders are configured on this node (SKILLS_DIRS)');
    const found = await findLocalSkillFiles(dirs);
    const skills = await discover(found.files, payload.ingest, (file) => ({ kind: 'local', path: file.location }), this.executor, context);
    return report({ kind: 'local', dirs: found.dirs }, skills);
  }
}

@CommandHandler(DiscoverGithubSkills)
export class DiscoverGithubSkillsHandler implements ICommandHandler<DiscoverGithubSkills> {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly executor: CommandExecutor,
  ) {}

  async execute({ payload, context }: DiscoverGithubSkills): Promise<DiscoveryView> {
    const options = { baseUrl: this.config.engine.githubApiUrl, token: this.config.engine.githubToken };
    const { ref, files } = await findGithubSkillFiles(options, payload.repository, payload.ref, payload.path);
    const skills = await discover(
      files,
      payload.ingest,
      (file) => ({ kind: 'github', repository: payload.repository, path: file.github?.path ?? file.location, ref }),
      this.executor,
      context,
    );
    return report({ kind: 'github', api: options.baseUrl, repository: payload.repository, ref, path: payload.path }, skills);
  }
}

export const ENGINE_COMMAND_HANDLERS = [
  IngestSkillHandler,
  RemoveSkillHandler,
  DiscoverLocalSkillsHandler,
  DiscoverGithubSkillsHandler,
  ExecuteCodingTaskHandler,
  InstallCodingToolHandler,
  SetUpToolHandler,
  StartToolHandler,
  StopToolHandler,
  UnloadToolHandler,
  SetModelPriorityHandler,
  OffloadModelHandler,
  EvictModelHandler,
];
