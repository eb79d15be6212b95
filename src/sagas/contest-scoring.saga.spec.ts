import { walletDecider, type WalletState } from '../aggregates/contest/wallet';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import { AwardSpark } from '../modules/contest/contest.commands';
import { ContestScoringSaga } from './contest-scoring.saga';

const window = { startsAt: new Date('2026-04-01T00:00:00Z'), endsAt: new Date('2026-05-01T00:00:00Z') };
let position = 0;
function recorded(type: string, data: Record<string, unknown>): RecordedEvent {
  position += 1;
  return {
    streamId: `s-${position}`,
    type,
    revision: 0,
    position,
    data: data as RecordedEvent['data'],
    recordedAt: '2026-04-10T00:00:00.000Z',
    metadata: {
      eventId: `e${position}`,
      correlationId: 'c',
      causationId: null,
      actor: 'op',
      nodeId: 'n',
      occurredAt: '2026-04-10T00:00:00.000Z',
      schemaVersion: 1,
    },
  };
}
const reported = (data: Record<string, unknown>) =>
  recorded('ScoringEventReported', { source_id: 'src1', user_id: 'u1', attested: true, success_rate: null, occurred_at: '2026-04-10T00:00:00.000Z', ...data });

/** Runs events through the saga and pays its commands into wallets with the real decider. */
function run(...events: RecordedEvent[]): { commands: AwardSpark[]; wallets: Map<string, WalletState> } {
  const saga = new ContestScoringSaga(window);
  const commands = events.flatMap((e) => saga.react(e) as AwardSpark[]);
  const wallets = new Map<string, WalletState>();
  const now = new Date('2026-04-10T00:00:00Z');
  for (const c of commands) {
    const state = wallets.get(c.payload.userId) ?? walletDecider.initialState;
    const out = walletDecider.decide({ kind: 'award', ...c.payload }, state, now);
    wallets.set(c.payload.userId, out.reduce(walletDecider.evolve, state));
  }
  return { commands, wallets };
}

describe('contest scoring saga', () => {
  it.each([
    ['recipe_published', { digital: 100 }],
    ['agent_adopted', { digital: 50 }],
    ['benchmarks_proven', { digital: 25, human_wellness: 15 }],
    ['robot_episode_success', { embodied: 75 }],
    ['robot_skill_registered', { embodied: 40 }],
    ['gpu_hour_served', { embodied: 5 }],
    ['wellness_outcome_attested', { human_wellness: 120 }],
    ['human_correction_accepted', { human_wellness: 30 }],
    ['season_spark', { digital: 1, embodied: 1, human_wellness: 1 }],
  ])('given a reported %s, then it awards %j with the source as identity', (type, tracks) => {
    const { commands } = run(reported({ event_type: type, success_rate: type === 'robot_episode_success' ? 0.9 : null }));
    expect(commands).toHaveLength(1);
    expect(commands[0]).toBeInstanceOf(AwardSpark);
    expect(commands[0].payload).toEqual({ userId: 'u1', tracks, sourceType: type, sourceId: 'src1', reason: type });
    expect(commands[0].context).toEqual({ actor: 'system:contest-scoring', correlationId: 'c', causationId: `e${position}` });
  });

  it('given the same event delivered three times (redelivery, restart), then the wallet is paid once', () => {
    const event = reported({ event_type: 'recipe_published' });
    const { commands, wallets } = run(event, event, event);
    expect(commands).toHaveLength(3);
    expect(wallets.get('u1')!.seasonSpark).toBe(100);
  });

  it('given a RecipePublished domain event and a reported recipe_published for the same recipe, then it pays once', () => {
    const { wallets } = run(
      recorded('RecipePublished', { recipe_id: 'src1', user_id: 'u1', attested: true, published_at: '2026-04-11T00:00:00Z' }),
      reported({ event_type: 'recipe_published' }),
    );
    expect(wallets.get('u1')!.seasonSpark).toBe(100);
  });

  it('given an unattested submission, then nothing is awarded', () => {
    expect(run(reported({ event_type: 'wellness_outcome_attested', attested: false })).commands).toEqual([]);
    expect(run(recorded('RecipePublished', { recipe_id: 'r', user_id: 'u1' })).commands).toEqual([]);
  });

  it('window edges: an event at the start scores, one at the end or before the start does not', () => {
    expect(run(reported({ event_type: 'agent_adopted', occurred_at: '2026-04-01T00:00:00.000Z' })).commands).toHaveLength(1);
    expect(run(reported({ event_type: 'agent_adopted', occurred_at: '2026-03-31T23:59:59.999Z' })).commands).toEqual([]);
    expect(run(reported({ event_type: 'agent_adopted', occurred_at: '2026-04-30T23:59:59.999Z' })).commands).toHaveLength(1);
    expect(run(reported({ event_type: 'agent_adopted', occurred_at: '2026-05-01T00:00:00.000Z' })).commands).toEqual([]);
  });

  it('robot episodes: 0.7 scores, 0.69 does not', () => {
    expect(run(reported({ event_type: 'robot_episode_success', success_rate: 0.7 })).commands).toHaveLength(1);
    expect(run(reported({ event_type: 'robot_episode_success', success_rate: 0.69 })).commands).toEqual([]);
  });

  it('given ContestJoined (also twice), then 1 spark on the joined track, paid once', () => {
    const joined = recorded('ContestJoined', { user_id: 'u9', track: 'embodied', joined_at: '2026-03-01T00:00:00Z' });
    const { commands, wallets } = run(joined, joined);
    expect(commands[0].payload).toEqual({ userId: 'u9', tracks: { embodied: 1 }, sourceType: 'contest:joined', sourceId: 'u9', reason: 'contest:joined' });
    expect(wallets.get('u9')!.seasonSpark).toBe(1);
  });

  it('ignores events it does not know', () => {
    expect(run(recorded('UserRegistered', { user_id: 'u1' })).commands).toEqual([]);
  });

  it('reacts to the join, the reported scoring events and the marketplace’s RecipePublished', () => {
    expect(new ContestScoringSaga(window).eventTypes).toEqual(['ContestJoined', 'ScoringEventReported', 'RecipePublished']);
  });
});
