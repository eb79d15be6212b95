import { deciderKit } from '../../../test/support/decider-kit';
import { contestWindowDecider, type ContestWindowEvent } from './contest-window';

const now = new Date('2026-11-23T10:00:00.000Z');
const { given } = deciderKit(contestWindowDecider, now);

const fix = (startsAt: string, endsAt: string) => ({ kind: 'fix' as const, nodeId: 'n1', startsAt: new Date(startsAt), endsAt: new Date(endsAt) });
const fixed: ContestWindowEvent = {
  type: 'ContestWindowFixed',
  data: { node_id: 'n1', starts_at: '2026-11-01T00:00:00.000Z', ends_at: '2026-12-01T00:00:00.000Z', fixed_at: '2026-11-01T00:00:00.000Z' },
};

describe('contest window', () => {
  it('given a node that never fixed its window, when fixing it, then ContestWindowFixed records the window and when', () =>
    given()
      .when(fix('2026-11-23T10:00:00.000Z', '2026-12-23T10:00:00.000Z'))
      .then({
        type: 'ContestWindowFixed',
        data: { node_id: 'n1', starts_at: '2026-11-23T10:00:00.000Z', ends_at: '2026-12-23T10:00:00.000Z', fixed_at: now.toISOString() },
      }));

  it('given a fixed window, when fixing another (a restart), then nothing changes', () =>
    given(fixed).when(fix('2026-11-23T10:00:00.000Z', '2026-12-23T10:00:00.000Z')).then());

  it('given a fixed window, then the state holds it', () => {
    expect(given(fixed).state()).toEqual({ status: 'fixed', startsAt: '2026-11-01T00:00:00.000Z', endsAt: '2026-12-01T00:00:00.000Z' });
  });
});
