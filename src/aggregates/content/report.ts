/**
 * A report of a post or comment (stream `report-<id>`; social-routes §4, §5,
 * §12): filed by any user (no de-duplication, the target is not checked, as
 * the original), reviewed by a moderator, who sets a status (any text,
 * `reviewed` by default) and becomes its moderator.
 */
import type { Decider } from '../shared/decider';
import { DomainError, assertNever } from '../shared/domain-error';
import type { ReportEvent, ReportTarget } from './content.events';

export interface ReportRecord {
  id: string;
  reporter_id: string;
  target_type: ReportTarget;
  target_id: string;
  reason: string;
  details: string | null;
  status: string;
  moderator_id: string | null;
  created_at: string;
}

export type ReportState = { status: 'none' } | { status: 'filed'; report: ReportRecord };

export type ReportCommand =
  | { kind: 'file'; reportId: string; reporterId: string; targetType: ReportTarget; targetId: string; reason: string; details: string | null }
  | { kind: 'review'; moderatorId: string; status: string };

export const REPORT_NOT_FOUND = 'Report not found';

const initialState: ReportState = { status: 'none' };

function evolve(state: ReportState, event: ReportEvent): ReportState {
  switch (event.type) {
    case 'ReportFiled': {
      const d = event.data;
      return {
        status: 'filed',
        report: { id: d.report_id, reporter_id: d.reporter_id, target_type: d.target_type, target_id: d.target_id, reason: d.reason, details: d.details, status: 'pending', moderator_id: null, created_at: d.filed_at },
      };
    }
    case 'ReportReviewed':
      if (state.status === 'none') return state;
      return { ...state, report: { ...state.report, status: event.data.status, moderator_id: event.data.moderator_id } };
    default:
      return assertNever(event);
  }
}

function decide(command: ReportCommand, state: ReportState, now: Date): ReportEvent[] {
  const at = now.toISOString();
  switch (command.kind) {
    case 'file':
      if (state.status !== 'none') throw new DomainError('conflict', 'report already exists');
      return [
        {
          type: 'ReportFiled',
          data: { report_id: command.reportId, reporter_id: command.reporterId, target_type: command.targetType, target_id: command.targetId, reason: command.reason, details: command.details, filed_at: at },
        },
      ];
    case 'review':
      if (state.status === 'none') throw new DomainError('not_found', REPORT_NOT_FOUND);
      return [{ type: 'ReportReviewed', data: { report_id: state.report.id, status: command.status, moderator_id: command.moderatorId, at } }];
    default:
      return assertNever(command);
  }
}

export const reportDecider: Decider<ReportState, ReportCommand, ReportEvent> = { initialState, evolve, decide };
