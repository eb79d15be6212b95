/**
 * The coding tools' records (issue 18):
 * - `codingRun-<runId>`: one sandboxed run of a coding task (POST
 *   /coding/execute), recorded once with its outcome; the benchmarks read
 *   model aggregates them.
 * - `codingTool-<name>`: the installs of an allow-listed coding CLI (POST
 *   /coding/install), each attempt with its outcome.
 */
import type { Decider, DomainEvent } from '../shared/decider';
import { assertNever } from '../shared/domain-error';

export type CodingRunStatus = 'passed' | 'failed' | 'timed_out';
/** `model`: the LLM port wrote the code; `client`: the task carried it */
export type CodeSource = 'model' | 'client';

export type CodingTaskRan = DomainEvent<
  'CodingTaskRan',
  {
    run_id: string;
    user_id: string;
    tool: string;
    task_type: string;
    model: string | null;
    code_source: CodeSource;
    status: CodingRunStatus;
    exit_code: number | null;
    signal: string | null;
    duration_ms: number;
    truncated: boolean;
    code_chars: number;
    ran_at: string;
  }
>;

export type CodingToolInstallOutcome = 'installed' | 'failed';
export type CodingToolInstalled = DomainEvent<
  'CodingToolInstalled',
  { tool: string; package: string; node_id: string; outcome: CodingToolInstallOutcome; version: string | null; error: string | null; installed_by: string; duration_ms: number; at: string }
>;

export type CodingEvent = CodingTaskRan | CodingToolInstalled;

export type CodingRunCommand = { kind: 'record' } & Omit<CodingTaskRan['data'], 'ran_at'>;

export function codingRunStreamId(runId: string): string {
  return `codingRun-${runId}`;
}

/** A run is recorded once: a repeat of its id records nothing. */
export const codingRunDecider: Decider<{ recorded: boolean }, CodingRunCommand, CodingTaskRan> = {
  initialState: { recorded: false },
  evolve(_state, event) {
    switch (event.type) {
      case 'CodingTaskRan':
        return { recorded: true };
      default:
        return assertNever(event.type);
    }
  },
  decide(command, state, now) {
    if (state.recorded) return [];
    const { kind: _kind, ...data } = command;
    return [{ type: 'CodingTaskRan', data: { ...data, ran_at: now.toISOString() } }];
  },
};

export type CodingToolCommand = { kind: 'recordInstall' } & Omit<CodingToolInstalled['data'], 'at'>;

export function codingToolStreamId(tool: string): string {
  return `codingTool-${tool}`;
}

export interface CodingToolState {
  installs: number;
}

/** Every install attempt is a fact worth keeping, failed or not. */
export const codingToolDecider: Decider<CodingToolState, CodingToolCommand, CodingToolInstalled> = {
  initialState: { installs: 0 },
  evolve(state, event) {
    switch (event.type) {
      case 'CodingToolInstalled':
        return { installs: state.installs + 1 };
      default:
        return assertNever(event.type);
    }
  },
  decide(command, _state, now) {
    const { kind: _kind, ...data } = command;
    return [{ type: 'CodingToolInstalled', data: { ...data, at: now.toISOString() } }];
  },
};
