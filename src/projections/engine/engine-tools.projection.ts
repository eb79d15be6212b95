/**
 * `engineTools`: one document per runtime tool of this node in
 * `engine_tools`, `_id` the tool's name: its recorded lifecycle (set up,
 * running with which process, crashes and restarts, stopped, unloaded), for
 * /api/tools/status and the model lifecycle. What only the live process
 * knows (health, logs) comes from the supervisor, not from here.
 */
import type { ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const ENGINE_TOOLS = 'engine_tools';

export interface EngineToolDoc extends Doc {
  tool: string;
  node_id: string;
  status: 'set_up' | 'running' | 'stopped' | 'crashed' | 'unloaded';
  source: 'debian' | 'npm' | 'local';
  program_path: string;
  version: string | null;
  set_up_at: string;
  pid: number | null;
  port: number | null;
  argv: string[];
  started_at: string | null;
  restarts: number;
  last_crash: { at: string; pid: number; exit_code: number | null; signal: string | null; cause: string; will_restart: boolean } | null;
  stopped_at: string | null;
  stop_reason: string | null;
  unloaded_at: string | null;
  unload_reason: string | null;
}

const update = (writer: ProjectionWriter, event: { position: number; streamId: string }, set: Record<string, unknown>): void =>
  applyOnce(writer, ENGINE_TOOLS, event.streamId.slice('tool-'.length), event, { $set: set }, { upsert: false });

export const engineToolsProjection = defineProjection({
  name: 'engineTools',
  version: 1,
  collections: [ENGINE_TOOLS],
  indexes: [],
  on: {
    ToolSetUp: (event, writer) => {
      const d = event.data;
      applyOnce(writer, ENGINE_TOOLS, d.tool, event, {
        $set: { tool: d.tool, node_id: d.node_id, source: d.source, program_path: d.program_path, version: d.version, set_up_at: d.set_up_at },
        $setOnInsert: {
          status: 'set_up',
          pid: null,
          port: null,
          argv: [],
          started_at: null,
          restarts: 0,
          last_crash: null,
          stopped_at: null,
          stop_reason: null,
          unloaded_at: null,
          unload_reason: null,
        },
      });
    },
    ToolStarted: (event, writer) => {
      const d = event.data;
      update(writer, event, { status: 'running', pid: d.pid, port: d.port, argv: d.argv, started_at: d.started_at, restarts: d.restarts });
    },
    ToolCrashed: (event, writer) => {
      const d = event.data;
      update(writer, event, {
        status: 'crashed',
        pid: null,
        port: null,
        last_crash: { at: d.crashed_at, pid: d.pid, exit_code: d.exit_code, signal: d.signal, cause: d.cause, will_restart: d.will_restart },
      });
    },
    ToolStopped: (event, writer) => update(writer, event, { status: 'stopped', pid: null, port: null, stopped_at: event.data.stopped_at, stop_reason: event.data.reason }),
    ToolUnloaded: (event, writer) =>
      update(writer, event, { status: 'unloaded', pid: null, port: null, unloaded_at: event.data.unloaded_at, unload_reason: event.data.reason }),
  },
});
