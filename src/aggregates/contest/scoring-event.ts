/**
 * A scoring event reported by an emitting subsystem (stream
 * `scoringEvent-<event_type>:<source_id>`): the source names the stream, so a
 * repeated report is a no-op and the same source cannot score twice. A second
 * report of the same source with different facts is refused (409).
 */
import { DomainError, assertNever } from '../shared/domain-error';
import type { Decider } from '../shared/decider';
import type { ScoringEventType } from './scoring';

export interface ScoringEventReportedData {
  event_type: ScoringEventType;
  source_id: string;
  user_id: string;
  attested: boolean;
  success_rate: number | null;
  /** when it happened at the source; decides whether it is inside the contest window */
  occurred_at: string;
  reported_by: string;
  reported_at: string;
}

export type ScoringEventEvent = { type: 'ScoringEventReported'; data: ScoringEventReportedData };

/** Not reported yet, or reported once with these facts. */
export type ScoringEventState = { status: 'none' } | { status: 'reported'; report: ScoringEventReportedData };

export type ScoringEventCommand = {
  kind: 'report';
  eventType: ScoringEventType;
  sourceId: string;
  userId: string;
  attested: boolean;
  successRate: number | null;
  /** null: now */
  occurredAt: Date | null;
  reportedBy: string;
};

export function scoringEventStreamId(eventType: string, sourceId: string): string {
  return `scoringEvent-${eventType}:${sourceId}`;
}

export const scoringEventDecider: Decider<ScoringEventState, ScoringEventCommand, ScoringEventEvent> = {
  initialState: { status: 'none' },
  evolve(_state, event) {
    switch (event.type) {
      case 'ScoringEventReported':
        return { status: 'reported', report: event.data };
      default:
        return assertNever(event.type);
    }
  },
  decide(command, state, now) {
    switch (command.kind) {
      case 'report': {
        if (state.status === 'reported') {
          const previous = state.report;
          const same =
            previous.user_id === command.userId &&
            previous.attested === command.attested &&
            previous.success_rate === command.successRate &&
            (command.occurredAt === null || previous.occurred_at === command.occurredAt.toISOString());
          if (!same) throw new DomainError('conflict', 'source already reported with different data');
          return [];
        }
        if (command.successRate !== null && !(command.successRate >= 0 && command.successRate <= 1)) {
          throw new DomainError('invalid', 'success_rate must be between 0 and 1');
        }
        return [
          {
            type: 'ScoringEventReported',
            data: {
              event_type: command.eventType,
              source_id: command.sourceId,
              user_id: command.userId,
              attested: command.attested,
              success_rate: command.successRate,
              occurred_at: (command.occurredAt ?? now).toISOString(),
              reported_by: command.reportedBy,
              reported_at: now.toISOString(),
            },
          },
        ];
      }
      default:
        return assertNever(command.kind);
    }
  },
};
