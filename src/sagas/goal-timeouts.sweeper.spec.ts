import type { GoalDoc } from '../projections/goals/goals.projection';
import { sweepActions } from './goal-timeouts.sweeper';

describe('goal timeout sweep', () => {
  const doc = (subtasks: Partial<GoalDoc['subtasks'][string]>[]): GoalDoc =>
    ({
      _id: 'g',
      subtask_ids: subtasks.map((_, i) => `s${i + 1}`),
      subtasks: Object.fromEntries(subtasks.map((s, i) => [`s${i + 1}`, s])),
    }) as unknown as GoalDoc;
  const now = new Date('2026-01-01T00:01:00.000Z');

  it('expires a goal with a dispatched sub-task past its deadline and dispatches one that waits', () => {
    expect(sweepActions(doc([{ status: 'dispatched', deadline: '2026-01-01T00:00:59.000Z' }]), now)).toEqual({ expire: true, dispatch: false });
    expect(sweepActions(doc([{ status: 'dispatched', deadline: '2026-01-01T00:02:00.000Z' }]), now)).toEqual({ expire: false, dispatch: false });
    expect(sweepActions(doc([{ status: 'pending', deadline: null }, { status: 'completed', deadline: null }]), now)).toEqual({ expire: false, dispatch: true });
  });
});
