/**
 * One runtime media tool of this node (issue 18): stream `tool-<name>`, the
 * name from the tool manifest. Its life, as the supervisor reports it:
 *
 *   none ──setUp──▶ set_up ──start──▶ running ──stop──▶ stopped ──start──▶ running …
 *                                        │  ▲
 *                                  crash │  │ start (the supervisor's restart)
 *                                        ▼  │
 *                                      crashed (will_restart, or given up)
 *   running | stopped | crashed ──unload──▶ unloaded (its memory released) ──start──▶ running
 *
 * - `setUp` records where the program was found (and whether it had to be
 *   installed); a repeat records it again only when something changed.
 * - `start` needs a tool that was set up and is not running; a `restart` start
 *   needs a crash that will be restarted.
 * - `stop` and `unload` of a tool that is not running, and an `unload` of one
 *   already unloaded, record nothing (idempotent), except that unloading a
 *   stopped or crashed tool releases it (`ToolUnloaded`).
 * - `crash` is only of a running tool (the supervisor saw its process end
 *   without being asked, or its health check fail).
 *
 * The process ids and ports are facts the supervisor reports; the decider
 * decides which transitions are legal.
 */
import type { Decider, DomainEvent } from '../shared/decider';
import { assertNever, DomainError } from '../shared/domain-error';

export type ToolSource = 'debian' | 'npm' | 'local';

export type ToolSetUp = DomainEvent<
  'ToolSetUp',
  { tool: string; node_id: string; source: ToolSource; program_path: string; version: string | null; installed_now: boolean; set_up_at: string }
>;
export type ToolStarted = DomainEvent<
  'ToolStarted',
  { tool: string; node_id: string; pid: number; port: number | null; argv: string[]; restart: boolean; restarts: number; started_at: string }
>;
export type ToolStopped = DomainEvent<'ToolStopped', { tool: string; node_id: string; reason: StopReason; stopped_at: string }>;
export type ToolUnloaded = DomainEvent<'ToolUnloaded', { tool: string; node_id: string; reason: UnloadReason; freed_memory_mb: number; freed_vram_mb: number; unloaded_at: string }>;
export type ToolCrashed = DomainEvent<
  'ToolCrashed',
  { tool: string; node_id: string; pid: number; exit_code: number | null; signal: string | null; cause: CrashCause; restarts: number; will_restart: boolean; crashed_at: string }
>;

export type RuntimeToolEvent = ToolSetUp | ToolStarted | ToolStopped | ToolUnloaded | ToolCrashed;

/**
 * `operator`: POST …/stop; `node_restarted`: found running in the log after
 * this node started again (its process is gone); `restart_failed`: the
 * supervisor could not bring it back after a crash.
 */
export type StopReason = 'operator' | 'node_restarted' | 'restart_failed';
/** `operator`: POST …/unload; `eviction`: the model lifecycle's eviction policy under VRAM pressure. */
export type UnloadReason = 'operator' | 'eviction';
/** `exited`: the process ended unasked; `unhealthy`: its health check failed and the supervisor killed it. */
export type CrashCause = 'exited' | 'unhealthy';

export type RuntimeToolStatus = 'none' | 'set_up' | 'running' | 'stopped' | 'crashed' | 'unloaded';

interface Installed {
  tool: string;
  programPath: string;
  restarts: number;
}

export type RuntimeToolState =
  | { status: 'none' }
  | (Installed & { status: 'set_up' | 'stopped' | 'unloaded' })
  | (Installed & { status: 'running'; pid: number })
  | (Installed & { status: 'crashed'; willRestart: boolean });

export type RuntimeToolCommand =
  | { kind: 'setUp'; tool: string; nodeId: string; source: ToolSource; programPath: string; version: string | null; installedNow: boolean }
  | { kind: 'start'; tool: string; nodeId: string; pid: number; port: number | null; argv: string[]; restart: boolean }
  | { kind: 'stop'; tool: string; nodeId: string; reason: StopReason }
  | { kind: 'unload'; tool: string; nodeId: string; reason: UnloadReason; memoryMb: number; vramMb: number }
  | { kind: 'crash'; tool: string; nodeId: string; pid: number; exitCode: number | null; signal: string | null; cause: CrashCause; willRestart: boolean };

export function runtimeToolStreamId(tool: string): string {
  return `tool-${tool}`;
}

type InstalledState = Exclude<RuntimeToolState, { status: 'none' }>;

/** The state of a tool that was set up; an event of a tool never set up is a corrupt stream. */
function priorOf(state: RuntimeToolState): InstalledState {
  if (state.status === 'none') throw new Error('a tool event before ToolSetUp');
  return state;
}

/** A command on a tool never set up is refused: the client must set it up first. */
function installed(state: RuntimeToolState, tool: string): InstalledState {
  if (state.status === 'none') throw new DomainError('conflict', `tool ${tool} is not set up: POST /api/tools/${tool}/setup first`);
  return state;
}

export const runtimeToolDecider: Decider<RuntimeToolState, RuntimeToolCommand, RuntimeToolEvent> = {
  initialState: { status: 'none' },

  evolve(state, event) {
    switch (event.type) {
      case 'ToolSetUp': {
        const base = { tool: event.data.tool, programPath: event.data.program_path, restarts: state.status === 'none' ? 0 : state.restarts };
        // setting up a running tool again changes where its program is, not that it runs
        if (state.status === 'running') return { ...state, programPath: base.programPath };
        if (state.status === 'crashed') return { ...state, programPath: base.programPath };
        return { ...base, status: state.status === 'none' ? 'set_up' : state.status };
      }
      case 'ToolStarted': {
        const prior = priorOf(state);
        return { tool: prior.tool, programPath: prior.programPath, restarts: event.data.restarts, status: 'running', pid: event.data.pid };
      }
      case 'ToolCrashed': {
        const prior = priorOf(state);
        return { tool: prior.tool, programPath: prior.programPath, restarts: event.data.restarts, status: 'crashed', willRestart: event.data.will_restart };
      }
      case 'ToolStopped': {
        const prior = priorOf(state);
        return { tool: prior.tool, programPath: prior.programPath, restarts: prior.restarts, status: 'stopped' };
      }
      case 'ToolUnloaded': {
        const prior = priorOf(state);
        return { tool: prior.tool, programPath: prior.programPath, restarts: prior.restarts, status: 'unloaded' };
      }
      default:
        return assertNever(event);
    }
  },

  decide(command, state, now) {
    const at = now.toISOString();
    switch (command.kind) {
      case 'setUp': {
        if (state.status !== 'none' && state.programPath === command.programPath && !command.installedNow) return [];
        return [
          {
            type: 'ToolSetUp',
            data: {
              tool: command.tool,
              node_id: command.nodeId,
              source: command.source,
              program_path: command.programPath,
              version: command.version,
              installed_now: command.installedNow,
              set_up_at: at,
            },
          },
        ];
      }
      case 'start': {
        const tool = installed(state, command.tool);
        if (tool.status === 'running') throw new DomainError('conflict', `tool ${tool.tool} is already running (pid ${tool.pid})`);
        if (command.restart && !(tool.status === 'crashed' && tool.willRestart)) throw new DomainError('conflict', `tool ${tool.tool} has no crash to restart from`);
        const restarts = command.restart ? tool.restarts + 1 : 0;
        return [{ type: 'ToolStarted', data: { tool: tool.tool, node_id: command.nodeId, pid: command.pid, port: command.port, argv: command.argv, restart: command.restart, restarts, started_at: at } }];
      }
      case 'stop': {
        const tool = installed(state, command.tool);
        // a crash that waits for its restart is stopped too: the operator wants it down
        if (tool.status !== 'running' && !(tool.status === 'crashed' && tool.willRestart)) return [];
        return [{ type: 'ToolStopped', data: { tool: tool.tool, node_id: command.nodeId, reason: command.reason, stopped_at: at } }];
      }
      case 'unload': {
        const tool = installed(state, command.tool);
        if (tool.status === 'unloaded' || tool.status === 'set_up') return [];
        return [
          {
            type: 'ToolUnloaded',
            data: { tool: tool.tool, node_id: command.nodeId, reason: command.reason, freed_memory_mb: command.memoryMb, freed_vram_mb: command.vramMb, unloaded_at: at },
          },
        ];
      }
      case 'crash': {
        const tool = installed(state, command.tool);
        if (tool.status !== 'running' || tool.pid !== command.pid) return []; // a late report of a process already accounted for
        return [
          {
            type: 'ToolCrashed',
            data: {
              tool: tool.tool,
              node_id: command.nodeId,
              pid: command.pid,
              exit_code: command.exitCode,
              signal: command.signal,
              cause: command.cause,
              restarts: tool.restarts,
              will_restart: command.willRestart,
              crashed_at: at,
            },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
