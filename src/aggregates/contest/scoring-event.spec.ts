import { deciderKit } from '../../../test/support/decider-kit';
import { type ScoringEventCommand, scoringEventDecider, type ScoringEventEvent } from './scoring-event';

const now = new Date('2026-04-10T10:00:00.000Z');
const { given } = deciderKit(scoringEventDecider, now);

const report = (extra: Partial<ScoringEventCommand> = {}): ScoringEventCommand => ({
  kind: 'report',
  eventType: 'robot_episode_success',
  sourceId: 'ep1',
  userId: 'u1',
  attested: true,
  successRate: 0.8,
  occurredAt: null,
  reportedBy: 'op1',
  ...extra,
});

const reported: ScoringEventEvent = {
  type: 'ScoringEventReported',
  data: {
    event_type: 'robot_episode_success',
    source_id: 'ep1',
    user_id: 'u1',
    attested: true,
    success_rate: 0.8,
    occurred_at: now.toISOString(),
    reported_by: 'op1',
    reported_at: now.toISOString(),
  },
};

describe('scoring event', () => {
  it('given nothing, when reporting, then ScoringEventReported defaults occurred_at to now', () => given().when(report()).then(reported));

  it('given a report, then the state holds the facts reported', () =>
    expect(given(reported).state()).toEqual({ status: 'reported', report: reported.data }));

  it('given a report, when the same facts are reported again, then nothing is recorded', () => given(reported).when(report()).thenNothing());

  it('given a report, when the same facts are reported again with the recorded time, then nothing is recorded', () =>
    given(reported).when(report({ occurredAt: now })).thenNothing());

  it('given a report, when the source is reported with other facts, then it is refused as a conflict', () =>
    given(reported).when(report({ userId: 'u2' })).thenRefused('conflict', 'source already reported with different data'));

  it('given nothing, when reporting a success rate outside 0..1, then it is refused as invalid', () =>
    given().when(report({ successRate: 1.5 })).thenRefused('invalid', 'success_rate must be between 0 and 1'));
});
