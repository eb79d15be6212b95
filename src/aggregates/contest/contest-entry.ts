/**
 * A user's contest entry (stream `contestEntry-<userId>`, deterministic from
 * the user id, so two concurrent joins serialise on the stream's revision and
 * the loser sees the winner's entry). Registration is idempotent: a repeat, on
 * any track, returns the first receipt; the first track is kept.
 */
import { DomainError, assertNever } from '../shared/domain-error';
import type { Decider } from '../shared/decider';
import type { Track } from './scoring';

export type ContestEntryEvent = {
  type: 'ContestJoined';
  data: { user_id: string; track: Track; joined_at: string };
};

/** Not joined yet, or joined on its first track. */
export type ContestEntryState = { status: 'none' } | { status: 'joined'; userId: string; track: Track; joinedAt: string };

export type ContestEntryCommand = { kind: 'join'; userId: string; track: Track; endsAt: Date };

export function contestEntryStreamId(userId: string): string {
  return `contestEntry-${userId}`;
}

export const contestEntryDecider: Decider<ContestEntryState, ContestEntryCommand, ContestEntryEvent> = {
  initialState: { status: 'none' },
  evolve(state, event) {
    switch (event.type) {
      case 'ContestJoined':
        return { status: 'joined', userId: event.data.user_id, track: event.data.track, joinedAt: event.data.joined_at };
      default:
        return assertNever(event.type);
    }
  },
  decide(command, state, now) {
    switch (command.kind) {
      case 'join':
        if (state.status === 'joined') return [];
        if (now.getTime() >= command.endsAt.getTime()) throw new DomainError('conflict', 'contest has ended');
        return [{ type: 'ContestJoined', data: { user_id: command.userId, track: command.track, joined_at: now.toISOString() } }];
      default:
        return assertNever(command.kind);
    }
  },
};
