/**
 * The runtime side of the tools: setup's locating and installing, the
 * recording of what the supervisor reports (crashes, restarts, giving up),
 * the reconciliation at start (a tool the log says is running has no process
 * after a restart of this node), and speech through the running TTS tool.
 * Operations on one tool run one after another (a lock per tool).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { runtimeToolDecider, runtimeToolStreamId, type RuntimeToolCommand } from '../../aggregates/engine/runtime-tool';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { PlatformLifecycle } from '../../infrastructure/platform-lifecycle';
import { CommandExecutor, type CommandContext } from '../common/command-executor';
import { KeyedMutex } from '../common/keyed-mutex';
import { findOnPath, isExecutable, plainEnv, runArgv, versionOf } from './argv-runner';
import { EngineToolsQueries, type ToolView } from './engine-tools.queries';
import { ToolCatalogue, type ToolInstall, type ToolManifest } from './tool-manifest';
import { type CrashReport, type Launched, ToolSupervisor } from './tool-supervisor';

const SYSTEM: CommandContext = { actor: 'system:tool-supervisor', correlationId: 'tool-supervisor' };
const INSTALL_TIMEOUT_MS = 10 * 60_000;

export interface LocatedProgram {
  path: string;
  version: string | null;
  installedNow: boolean;
}

/** The argv that installs a tool's program, or null for a local path (an operator builds those). */
export function installArgv(install: ToolInstall, npmDir: string, npmRegistry: string | null = null): string[] | null {
  switch (install.source) {
    case 'debian':
      return ['apt-get', 'install', '-y', '--no-install-recommends', install.package];
    case 'npm':
      return npmInstallArgv(install.package, npmDir, npmRegistry);
    case 'local':
      return null;
  }
}

/** `npm install` of one package into the node's own folder (never global), from ENGINE_NPM_REGISTRY when set. */
export function npmInstallArgv(pkg: string, npmDir: string, npmRegistry: string | null): string[] {
  return ['npm', 'install', '--no-audit', '--no-fund', ...(npmRegistry ? ['--registry', npmRegistry] : []), '--prefix', npmDir, pkg];
}

/** Where the program of a tool is (null: absent). */
export function programPath(tool: ToolManifest, npmDir: string): string | null {
  switch (tool.install.source) {
    case 'debian':
      return findOnPath(tool.program);
    case 'npm': {
      const path = join(npmDir, 'node_modules', '.bin', tool.program);
      return isExecutable(path) ? path : null;
    }
    case 'local':
      return isExecutable(tool.install.path) ? tool.install.path : null;
  }
}

function absentMessage(tool: ToolManifest, allowInstall: boolean): string {
  switch (tool.install.source) {
    case 'debian':
      return allowInstall
        ? `${tool.program} is still missing after installing the Debian package ${tool.install.package}`
        : `${tool.program} is not installed on this node: install the Debian package ${tool.install.package} (apt-get install ${tool.install.package}), or set ENGINE_ALLOW_INSTALL=1 to let setup install it`;
    case 'npm':
      return allowInstall
        ? `${tool.program} is still missing after installing the npm package ${tool.install.package}`
        : `${tool.program} is not installed on this node: set ENGINE_ALLOW_INSTALL=1 to let setup install the npm package ${tool.install.package}`;
    case 'local':
      return `${tool.program} is not at ${tool.install.path} on this node: an operator must build it there (local-path tool)`;
  }
}

@Injectable()
export class EngineToolsRuntime implements OnApplicationBootstrap {
  private readonly logger = new Logger('EngineTools');
  private readonly locks = new KeyedMutex();
  readonly toolsDir: string;
  readonly npmDir: string;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly executor: CommandExecutor,
    private readonly supervisor: ToolSupervisor,
    private readonly lifecycle: PlatformLifecycle,
    private readonly catalogue: ToolCatalogue,
    private readonly queries: EngineToolsQueries,
  ) {
    this.toolsDir = join(config.dataDir, 'engine', 'tools');
    this.npmDir = join(config.dataDir, 'engine', 'npm');
    supervisor.listen({
      onCrash: (report) => this.locked(report.tool, () => this.recordCrash(report)),
      onRestart: async (tool, launched) => void (await this.locked(tool, () => this.recordStart(tool, launched, true, SYSTEM))),
      onGaveUp: async (tool) => void (await this.locked(tool, () => this.record(tool, { kind: 'stop', tool, nodeId: this.config.nodeId, reason: 'restart_failed' }, SYSTEM))),
    });
  }

  /** A tool the log shows running (or about to restart) has no process after this node started: record it stopped, and end an orphan left by a hard kill. */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.lifecycle.runsBackgroundWork()) return;
    for (const tool of this.catalogue.tools) {
      try {
        const { state } = await this.executor.load(runtimeToolDecider, runtimeToolStreamId(tool.name));
        if (state.status === 'running') await this.endOrphan(state.pid, tool);
        if (state.status === 'running' || (state.status === 'crashed' && state.willRestart)) {
          await this.record(tool.name, { kind: 'stop', tool: tool.name, nodeId: this.config.nodeId, reason: 'node_restarted' }, SYSTEM);
        }
      } catch (error) {
        this.logger.warn(`reconciling tool ${tool.name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  locked<T>(tool: string, task: () => Promise<T>): Promise<T> {
    return this.locks.run(tool, task);
  }

  /** An operation on the tool of a `{tool_name}` (400/404 first), under its lock; the tool's view after it. */
  act(name: string, work: (tool: ToolManifest) => Promise<void>): Promise<ToolView> {
    const tool = this.catalogue.of(name);
    return this.locked(tool.name, async () => {
      await work(tool);
      return this.queries.tool(tool);
    });
  }

  record(tool: string, command: RuntimeToolCommand, context: CommandContext) {
    return this.executor.execute(runtimeToolDecider, runtimeToolStreamId(tool), command, context);
  }

  recordStart(tool: string, launched: Launched, restart: boolean, context: CommandContext) {
    return this.record(tool, { kind: 'start', tool, nodeId: this.config.nodeId, pid: launched.pid, port: launched.port, argv: launched.argv, restart }, context);
  }

  /** Finds the program, installing it when it is missing and ENGINE_ALLOW_INSTALL allows; writes the tool's server files. */
  async locate(tool: ToolManifest): Promise<LocatedProgram> {
    let path = programPath(tool, this.npmDir);
    let installedNow = false;
    const argv = installArgv(tool.install, this.npmDir, this.config.engine.npmRegistry);
    if (path === null && argv !== null && this.config.engine.allowInstall) {
      await mkdir(this.npmDir, { recursive: true });
      const result = await runArgv(argv, { timeoutMs: INSTALL_TIMEOUT_MS, env: plainEnv({ DEBIAN_FRONTEND: 'noninteractive' }) });
      if (result.exitCode !== 0) {
        const why = result.spawnError ?? (result.timedOut ? 'timed out' : `exit ${result.exitCode}: ${result.stderr.trim().split('\n').slice(-3).join(' | ')}`);
        throw new DomainError('unavailable', `installing ${tool.program} with ${argv.slice(0, 2).join(' ')} failed: ${why}`);
      }
      installedNow = true;
      path = programPath(tool, this.npmDir);
    }
    if (path === null) throw new DomainError('unavailable', absentMessage(tool, this.config.engine.allowInstall));
    await mkdir(this.toolsDir, { recursive: true });
    for (const [file, content] of Object.entries(tool.files)) await writeFile(join(this.toolsDir, file), content, { mode: 0o644 });
    return { path, version: await versionOf(path), installedNow };
  }

  /** Sends text to the running TTS tool; its WAV. */
  async speak(request: { text: string; voice: string; speed: number }): Promise<Buffer> {
    const live = this.supervisor.live('tts');
    if (!live) throw new DomainError('conflict', 'tool tts is not running: POST /api/tools/tts/start first');
    let res: Response;
    try {
      res = await fetch(`http://127.0.0.1:${live.port}/speak`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(request),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      throw new DomainError('unavailable', `tool tts did not answer: ${error instanceof Error ? error.message : String(error)}`);
    }
    const body = Buffer.from(await res.arrayBuffer());
    if (!res.ok) {
      const message = (() => {
        try {
          return String((JSON.parse(body.toString('utf8')) as { error?: unknown }).error);
        } catch {
          return body.toString('utf8').slice(0, 300);
        }
      })();
      throw new DomainError(res.status === 400 ? 'invalid' : 'unavailable', `tool tts: ${message}`);
    }
    return body;
  }

  private async recordCrash(report: CrashReport): Promise<void> {
    await this.record(
      report.tool,
      {
        kind: 'crash',
        tool: report.tool,
        nodeId: this.config.nodeId,
        pid: report.pid,
        exitCode: report.exitCode,
        signal: report.signal,
        cause: report.cause,
        willRestart: report.willRestart,
      },
      SYSTEM,
    );
  }

  /** Kills a process left over from before this node's restart, only when its command line is the tool's. */
  private async endOrphan(pid: number, tool: ToolManifest): Promise<void> {
    let cmdline: string;
    try {
      cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').join(' ');
    } catch {
      return; // gone
    }
    const marker = tool.files && Object.keys(tool.files)[0];
    const ours = marker ? cmdline.includes(join(this.toolsDir, marker)) : cmdline.includes(tool.program);
    if (!ours) return;
    try {
      process.kill(pid, 'SIGKILL');
      this.logger.warn(`ended tool ${tool.name}'s orphan process ${pid}`);
    } catch {
      // already gone
    }
  }
}
