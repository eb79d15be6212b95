/**
 * What a signed-in client reports about agents (POST /agent/observe and
 * /agent/dispatch, social-routes §3): fire-and-forget observations and
 * dispatches, recorded on the reporter's `agentActivity-<userId>` stream.
 * Only the known fields are kept, as bounded strings (and a duration).
 */
import { assertNever } from '../shared/domain-error';
import type { Decider } from '../shared/decider';

export type AgentActivityEvent =
  | { type: 'AgentObserved'; data: { user_id: string; event: string | null; page: string | null; outcome: string | null; duration_ms: number | null; at: string } }
  | { type: 'AgentDispatched'; data: { user_id: string; agent: string | null; action: string | null; mode: string | null; at: string } };

export type AgentActivityCommand =
  | { kind: 'observe'; userId: string; event: string | null; page: string | null; outcome: string | null; durationMs: number | null }
  | { kind: 'dispatch'; userId: string; agent: string | null; action: string | null; mode: string | null };

/** The stream keeps no state: every report is recorded. */
export type AgentActivityState = null;

export const agentActivityStreamId = (userId: string): string => `agentActivity-${userId}`;

function decide(command: AgentActivityCommand, _state: AgentActivityState, now: Date): AgentActivityEvent[] {
  const at = now.toISOString();
  switch (command.kind) {
    case 'observe':
      return [{ type: 'AgentObserved', data: { user_id: command.userId, event: command.event, page: command.page, outcome: command.outcome, duration_ms: command.durationMs, at } }];
    case 'dispatch':
      return [{ type: 'AgentDispatched', data: { user_id: command.userId, agent: command.agent, action: command.action, mode: command.mode, at } }];
    default:
      return assertNever(command);
  }
}

export const agentActivityDecider: Decider<AgentActivityState, AgentActivityCommand, AgentActivityEvent> = {
  initialState: null,
  evolve: (state) => state,
  decide,
};
