/**
 * Reads of the runtime tools: the manifest, each tool's recorded lifecycle
 * (the `engine_tools` read model) and what the supervisor knows of its live
 * process (health, the tail of its log).
 */
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { ENGINE_TOOLS, type EngineToolDoc } from '../../projections/engine/engine-tools.projection';
import { ToolCatalogue, type ToolInstall, type ToolKind, type ToolManifest } from './tool-manifest';
import { type LiveTool, type LogLine, ToolSupervisor } from './tool-supervisor';

export type ToolStatus = 'not_set_up' | EngineToolDoc['status'];

export interface ToolView {
  name: string;
  kind: ToolKind;
  description: string;
  model: string;
  install: ToolInstall;
  program: { name: string; path: string | null; version: string | null };
  command: string[];
  health: { kind: 'http'; path: string };
  estimate: { memory_mb: number; vram_mb: number };
  status: ToolStatus;
  process: LiveTool | null;
  restarts: number;
  /** a crash waits for its back-off before the supervisor restarts it */
  restarting: boolean;
  last_crash: EngineToolDoc['last_crash'];
  set_up_at: string | null;
  stopped_at: string | null;
  stop_reason: string | null;
  unloaded_at: string | null;
  unload_reason: string | null;
  logs: LogLine[];
}

export interface ToolsStatus {
  node_id: string;
  tools: ToolView[];
  totals: { running: number; memory_mb: number; vram_mb: number };
}

@Injectable()
export class EngineToolsQueries {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly supervisor: ToolSupervisor,
    private readonly catalogue: ToolCatalogue,
  ) {}

  async status(): Promise<ToolsStatus> {
    const docs = await this.store.collection<EngineToolDoc>(ENGINE_TOOLS).find({});
    const tools = this.catalogue.tools.map((manifest) => this.view(manifest, docs.find((doc) => doc._id === manifest.name) ?? null));
    const running = tools.filter((tool) => tool.status === 'running');
    return {
      node_id: this.config.nodeId,
      tools,
      totals: {
        running: running.length,
        memory_mb: running.reduce((sum, tool) => sum + tool.estimate.memory_mb, 0),
        vram_mb: running.reduce((sum, tool) => sum + tool.estimate.vram_mb, 0),
      },
    };
  }

  async tool(manifest: ToolManifest): Promise<ToolView> {
    return this.view(manifest, await this.record(manifest.name));
  }

  record(tool: string): Promise<EngineToolDoc | null> {
    return this.store.collection<EngineToolDoc>(ENGINE_TOOLS).findOne({ _id: tool });
  }

  private view(manifest: ToolManifest, doc: EngineToolDoc | null): ToolView {
    return {
      name: manifest.name,
      kind: manifest.kind,
      description: manifest.description,
      model: manifest.model,
      install: manifest.install,
      program: { name: manifest.program, path: doc?.program_path ?? null, version: doc?.version ?? null },
      command: [...manifest.command],
      health: manifest.health,
      estimate: manifest.estimate,
      status: doc?.status ?? 'not_set_up',
      process: this.supervisor.live(manifest.name),
      restarts: doc?.restarts ?? 0,
      restarting: this.supervisor.restarting(manifest.name),
      last_crash: doc?.last_crash ?? null,
      set_up_at: doc?.set_up_at ?? null,
      stopped_at: doc?.stopped_at ?? null,
      stop_reason: doc?.stop_reason ?? null,
      unloaded_at: doc?.unloaded_at ?? null,
      unload_reason: doc?.unload_reason ?? null,
      logs: this.supervisor.logs(manifest.name),
    };
  }
}
