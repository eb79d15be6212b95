/**
 * The contest window of a node (stream `contestWindow-<nodeId>`): fixed once,
 * at the node's first start when the configuration does not set it, and the
 * same after every restart (SPEC §2.7 starts_at and ends_at). Fixing it
 * again is a no-op: the first window stands.
 */
import { assertNever } from '../shared/domain-error';
import type { Decider } from '../shared/decider';

export type ContestWindowEvent = {
  type: 'ContestWindowFixed';
  data: { node_id: string; starts_at: string; ends_at: string; fixed_at: string };
};

export type ContestWindowState = { status: 'open' } | { status: 'fixed'; startsAt: string; endsAt: string };

export type ContestWindowCommand = { kind: 'fix'; nodeId: string; startsAt: Date; endsAt: Date };

export function contestWindowStreamId(nodeId: string): string {
  return `contestWindow-${nodeId}`;
}

export const contestWindowDecider: Decider<ContestWindowState, ContestWindowCommand, ContestWindowEvent> = {
  initialState: { status: 'open' },
  evolve(state, event) {
    switch (event.type) {
      case 'ContestWindowFixed':
        return { status: 'fixed', startsAt: event.data.starts_at, endsAt: event.data.ends_at };
      default:
        return assertNever(event.type);
    }
  },
  decide(command, state, now) {
    switch (command.kind) {
      case 'fix':
        if (state.status === 'fixed') return [];
        return [
          {
            type: 'ContestWindowFixed',
            data: { node_id: command.nodeId, starts_at: command.startsAt.toISOString(), ends_at: command.endsAt.toISOString(), fixed_at: now.toISOString() },
          },
        ];
      default:
        return assertNever(command.kind);
    }
  },
};
