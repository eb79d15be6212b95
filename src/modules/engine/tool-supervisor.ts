/**
 * Supervises the runtime tools' server processes on this node:
 *
 * - `launch` spawns the manifest's argv (no shell; an environment without
 *   this process's secrets) on a free loopback port and waits until its
 *   health check answers (ENGINE_TOOL_START_TIMEOUT: 15 s), or kills it and
 *   says why with the tail of its log.
 * - While it runs, the health check is polled (every ENGINE_TOOL_HEALTH_MS,
 *   2 s); three failures in a row kill it as unhealthy.
 * - A process that ends without being asked is a crash: reported (ToolCrashed
 *   via `onCrash`), then restarted after a back-off that doubles from
 *   ENGINE_TOOL_BACKOFF_MS (at most 30 s), up to ENGINE_TOOL_RESTART_LIMIT
 *   times in a row; each restart is reported (`onRestart` → ToolStarted).
 * - Each process's stdout and stderr lines are kept in a ring buffer (the
 *   last 200) for /api/tools/status.
 * - On shutdown every child is ended (SIGTERM, SIGKILL after 2 s).
 *
 * The supervisor knows processes; what is recorded is decided by the tool
 * aggregate (the handlers, and the callbacks the engine tools service wires).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { DomainError } from '../../aggregates/shared/domain-error';
import type { CrashCause } from '../../aggregates/engine/runtime-tool';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { plainEnv } from './argv-runner';
import type { ToolManifest } from './tool-manifest';

export interface LogLine {
  at: string;
  stream: 'stdout' | 'stderr' | 'supervisor';
  line: string;
}

export interface Launched {
  pid: number;
  port: number;
  argv: string[];
}

export interface LiveTool {
  pid: number;
  port: number;
  argv: string[];
  started_at: string;
  healthy: boolean;
  last_health_at: string | null;
}

export interface CrashReport {
  tool: string;
  pid: number;
  exitCode: number | null;
  signal: string | null;
  cause: CrashCause;
  willRestart: boolean;
}

/** What the supervisor reports to whoever records the lifecycle. */
export interface SupervisorListener {
  onCrash(report: CrashReport): Promise<void>;
  onRestart(tool: string, launched: Launched): Promise<void>;
  /** the restarts ran out (or a restart could not start): the tool stays down */
  onGaveUp(tool: string, reason: string): Promise<void>;
}

const LOG_LINES = 200;
const HEALTH_FAILURES = 3;
const START_TIMEOUT_MS = 15_000;
const MAX_BACKOFF_MS = 30_000;
/** a process that ran this long before it crashed resets the crash count */
const STABLE_AFTER_MS = 10 * 60_000;

class RingLog {
  private readonly lines: LogLine[] = [];
  private partial: Record<'stdout' | 'stderr', string> = { stdout: '', stderr: '' };

  push(stream: LogLine['stream'], line: string): void {
    this.lines.push({ at: new Date().toISOString(), stream, line: line.slice(0, 2000) });
    if (this.lines.length > LOG_LINES) this.lines.splice(0, this.lines.length - LOG_LINES);
  }

  chunk(stream: 'stdout' | 'stderr', data: Buffer): void {
    const parts = (this.partial[stream] + data.toString('utf8')).split('\n');
    this.partial[stream] = parts.pop() ?? '';
    if (this.partial[stream].length > 2000) {
      parts.push(this.partial[stream]);
      this.partial[stream] = '';
    }
    for (const line of parts) if (line.trim()) this.push(stream, line);
  }

  tail(n: number): LogLine[] {
    return this.lines.slice(-n);
  }
}

interface Supervised {
  manifest: ToolManifest;
  /** the argv builder for (re)starts on a new port */
  argvFor: (port: number) => string[];
  child: ChildProcess | null;
  live: LiveTool | null;
  logs: RingLog;
  /** asked to stop: an exit now is not a crash */
  stopping: boolean;
  /** crashes since the last start an operator asked for */
  crashes: number;
  healthTimer: NodeJS.Timeout | null;
  healthFailures: number;
  restartTimer: NodeJS.Timeout | null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function healthy(port: number, path: string): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(1000) });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

@Injectable()
export class ToolSupervisor implements OnApplicationShutdown {
  private readonly logger = new Logger('ToolSupervisor');
  private readonly tools = new Map<string, Supervised>();
  private listener: SupervisorListener | null = null;
  private closed = false;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Who records crashes and restarts (the engine tools service, at start). */
  listen(listener: SupervisorListener): void {
    this.listener = listener;
  }

  live(tool: string): LiveTool | null {
    return this.tools.get(tool)?.live ?? null;
  }

  logs(tool: string, n = 20): LogLine[] {
    return this.tools.get(tool)?.logs.tail(n) ?? [];
  }

  /** Whether a restart is waiting for its back-off. */
  restarting(tool: string): boolean {
    return (this.tools.get(tool)?.restartTimer ?? null) !== null;
  }

  /** Starts the tool's server and waits until it is healthy; a start asked by an operator resets the crash count. */
  async launch(manifest: ToolManifest, argvFor: (port: number) => string[]): Promise<Launched> {
    if (this.closed) throw new DomainError('unavailable', 'the node is shutting down');
    const entry = this.tools.get(manifest.name) ?? this.entry(manifest, argvFor);
    if (entry.child) throw new DomainError('conflict', `tool ${manifest.name} is already running (pid ${entry.child.pid})`);
    this.clearRestart(entry);
    entry.argvFor = argvFor;
    entry.crashes = 0;
    return this.spawnHealthy(entry);
  }

  /** Ends the tool's process (SIGTERM, then SIGKILL) and cancels a pending restart; false when nothing ran. */
  async stop(tool: string): Promise<boolean> {
    const entry = this.tools.get(tool);
    if (!entry) return false;
    const hadRestart = entry.restartTimer !== null;
    this.clearRestart(entry);
    const child = entry.child;
    if (!child) return hadRestart;
    entry.stopping = true;
    entry.logs.push('supervisor', 'stopping');
    await this.end(child);
    return true;
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.tools.keys()].map((tool) => this.stop(tool)));
  }

  private entry(manifest: ToolManifest, argvFor: (port: number) => string[]): Supervised {
    const entry: Supervised = {
      manifest,
      argvFor,
      child: null,
      live: null,
      logs: new RingLog(),
      stopping: false,
      crashes: 0,
      healthTimer: null,
      healthFailures: 0,
      restartTimer: null,
    };
    this.tools.set(manifest.name, entry);
    return entry;
  }

  private clearRestart(entry: Supervised): void {
    if (entry.restartTimer) clearTimeout(entry.restartTimer);
    entry.restartTimer = null;
  }

  private end(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const kill = setTimeout(() => child.kill('SIGKILL'), 2000);
      child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }

  private async spawnHealthy(entry: Supervised): Promise<Launched> {
    const port = await freePort();
    const argv = entry.argvFor(port);
    const [program, ...args] = argv;
    entry.stopping = false;
    entry.healthFailures = 0;
    entry.logs.push('supervisor', `starting: ${JSON.stringify(argv)}`);
    const child = spawn(program, args, { env: plainEnv(), stdio: ['ignore', 'pipe', 'pipe'], shell: false });
    const spawned = await new Promise<string | null>((resolve) => {
      child.once('spawn', () => resolve(null));
      child.once('error', (error) => resolve(error.message));
    });
    if (spawned !== null || child.pid === undefined) {
      entry.logs.push('supervisor', `could not start: ${spawned}`);
      throw new DomainError('unavailable', `tool ${entry.manifest.name} could not start: ${spawned}`);
    }
    const pid = child.pid;
    entry.child = child;
    child.stdout?.on('data', (data: Buffer) => entry.logs.chunk('stdout', data));
    child.stderr?.on('data', (data: Buffer) => entry.logs.chunk('stderr', data));
    let unhealthy = false;
    child.once('exit', (code, signal) => this.exited(entry, child, code, signal, unhealthy ? 'unhealthy' : 'exited'));
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!(await healthy(port, entry.manifest.health.path))) {
      if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
        entry.stopping = true;
        await this.end(child);
        const tail = entry.logs.tail(5).map((l) => l.line).join(' | ');
        throw new DomainError('unavailable', `tool ${entry.manifest.name} did not become healthy within ${START_TIMEOUT_MS / 1000} s${tail ? `: ${tail}` : ''}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const now = new Date().toISOString();
    entry.live = { pid, port, argv, started_at: now, healthy: true, last_health_at: now };
    entry.logs.push('supervisor', `healthy on 127.0.0.1:${port} (pid ${pid})`);
    entry.healthTimer = setInterval(() => {
      void healthy(port, entry.manifest.health.path).then((ok) => {
        if (entry.child !== child || !entry.live) return;
        entry.live.last_health_at = new Date().toISOString();
        entry.live.healthy = ok;
        entry.healthFailures = ok ? 0 : entry.healthFailures + 1;
        if (entry.healthFailures >= HEALTH_FAILURES) {
          unhealthy = true;
          entry.logs.push('supervisor', `health check failed ${HEALTH_FAILURES} times: killing pid ${pid}`);
          child.kill('SIGKILL');
        }
      });
    }, this.config.engine.toolHealthMs);
    entry.healthTimer.unref();
    return { pid, port, argv };
  }

  private exited(entry: Supervised, child: ChildProcess, code: number | null, signal: NodeJS.Signals | null, cause: CrashCause): void {
    if (entry.healthTimer) clearInterval(entry.healthTimer);
    entry.healthTimer = null;
    if (entry.child !== child) return;
    entry.child = null;
    const live = entry.live;
    entry.live = null;
    entry.logs.push('supervisor', `exited (code ${code}, signal ${signal})`);
    if (entry.stopping || live === null || this.closed) return; // asked to stop, or never became healthy (launch reports that)
    const { toolRestartLimit, toolBackoffMs } = this.config.engine;
    // crashes count "in a row": a process that ran healthy for a while starts the count again
    if (Date.now() - Date.parse(live.started_at) > STABLE_AFTER_MS) entry.crashes = 0;
    const willRestart = entry.crashes < toolRestartLimit;
    const report: CrashReport = { tool: entry.manifest.name, pid: live.pid, exitCode: code, signal, cause, willRestart };
    void this.report(() => this.listener?.onCrash(report));
    if (!willRestart) return;
    const backoff = Math.min(MAX_BACKOFF_MS, toolBackoffMs * 2 ** entry.crashes);
    entry.crashes += 1;
    entry.logs.push('supervisor', `restarting in ${backoff} ms (restart ${entry.crashes} of ${toolRestartLimit})`);
    entry.restartTimer = setTimeout(() => {
      entry.restartTimer = null;
      void this.restart(entry);
    }, backoff);
    entry.restartTimer.unref();
  }

  private async restart(entry: Supervised): Promise<void> {
    if (this.closed) return;
    try {
      const launched = await this.spawnHealthy(entry);
      await this.report(() => this.listener?.onRestart(entry.manifest.name, launched));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      entry.logs.push('supervisor', `restart failed: ${reason}`);
      await this.report(() => this.listener?.onGaveUp(entry.manifest.name, reason));
    }
  }

  private async report(call: () => Promise<void> | undefined): Promise<void> {
    try {
      await call();
    } catch (error) {
      this.logger.warn(`recording a tool's lifecycle: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
