import { DomainError } from '../shared/domain-error';
import { type ScoringEventCommand, scoringEventDecider, type ScoringEventEvent } from './scoring-event';

const now = new Date('2026-04-10T10:00:00.000Z');
const given = (...events: ScoringEventEvent[]) => events.reduce(scoringEventDecider.evolve, scoringEventDecider.initialState);
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

describe('scoring event', () => {
  const [reported] = scoringEventDecider.decide(report(), given(), now);

  it('given nothing, when reporting, then ScoringEventReported defaults occurred_at to now', () => {
    expect(reported).toEqual({
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
    });
  });

  it('given a report, when the same facts are reported again, then nothing is recorded', () => {
    expect(scoringEventDecider.decide(report(), given(reported), now)).toEqual([]);
    expect(scoringEventDecider.decide(report({ occurredAt: now }), given(reported), now)).toEqual([]);
  });

  it('given a report, when the source is reported with other facts, then 409', () => {
    expect(() => scoringEventDecider.decide(report({ userId: 'u2' }), given(reported), now)).toThrow(
      new DomainError('conflict', 'source already reported with different data'),
    );
  });

  it('given a success rate outside 0..1, then it is invalid', () => {
    expect(() => scoringEventDecider.decide(report({ successRate: 1.5 }), given(), now)).toThrow(DomainError);
  });
});
