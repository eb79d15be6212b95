import { EMBODIED_SUCCESS_THRESHOLD, SCORE_WEIGHTS, type ScoringEventType, scoreFor } from './scoring';

const window = { startsAt: new Date('2026-04-01T00:00:00Z'), endsAt: new Date('2026-05-01T00:00:00Z') };
const inside = new Date('2026-04-10T00:00:00Z');
const input = (eventType: ScoringEventType, extra: Partial<Parameters<typeof scoreFor>[0]> = {}) => ({
  eventType,
  attested: true,
  successRate: eventType === 'robot_episode_success' ? 0.9 : null,
  occurredAt: inside,
  ...extra,
});

describe('contest scoring', () => {
  it.each([
    ['recipe_published', { digital: 100 }, 100],
    ['agent_adopted', { digital: 50 }, 50],
    ['benchmarks_proven', { digital: 25, human_wellness: 15 }, 40],
    ['robot_episode_success', { embodied: 75 }, 75],
    ['robot_skill_registered', { embodied: 40 }, 40],
    ['gpu_hour_served', { embodied: 5 }, 5],
    ['wellness_outcome_attested', { human_wellness: 120 }, 120],
    ['human_correction_accepted', { human_wellness: 30 }, 30],
    ['season_spark', { digital: 1, embodied: 1, human_wellness: 1 }, 3],
  ] as const)('given an attested %s inside the window, then it scores %j only on those tracks', (type, tracks, amount) => {
    expect(scoreFor(input(type), window)).toEqual({ tracks, amount });
  });

  it('the table covers exactly the nine events of SPEC §2.7', () => {
    expect(Object.keys(SCORE_WEIGHTS)).toHaveLength(9);
  });

  it('given an unattested submission, then it scores zero', () => {
    expect(scoreFor(input('recipe_published', { attested: false }), window)).toBeNull();
    expect(scoreFor(input('wellness_outcome_attested', { attested: false }), window)).toBeNull();
  });

  it('window edges: the start counts, the end does not, before the start does not', () => {
    expect(scoreFor(input('agent_adopted', { occurredAt: window.startsAt }), window)).not.toBeNull();
    expect(scoreFor(input('agent_adopted', { occurredAt: new Date(window.startsAt.getTime() - 1) }), window)).toBeNull();
    expect(scoreFor(input('agent_adopted', { occurredAt: new Date(window.endsAt.getTime() - 1) }), window)).not.toBeNull();
    expect(scoreFor(input('agent_adopted', { occurredAt: window.endsAt }), window)).toBeNull();
  });

  it('robot_episode_success counts from a success rate of 0.7 on', () => {
    expect(EMBODIED_SUCCESS_THRESHOLD).toBe(0.7);
    expect(scoreFor(input('robot_episode_success', { successRate: 0.7 }), window)).toEqual({ tracks: { embodied: 75 }, amount: 75 });
    expect(scoreFor(input('robot_episode_success', { successRate: 1 }), window)).not.toBeNull();
    expect(scoreFor(input('robot_episode_success', { successRate: 0.6999 }), window)).toBeNull();
    expect(scoreFor(input('robot_episode_success', { successRate: null }), window)).toBeNull();
  });

  it('the success threshold applies to robot episodes only', () => {
    expect(scoreFor(input('robot_skill_registered', { successRate: 0.1 }), window)).not.toBeNull();
  });
});
