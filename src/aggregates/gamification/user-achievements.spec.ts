import { deciderKit } from '../../../test/support/decider-kit';
import { ACHIEVEMENT_NOT_UNLOCKED, userAchievementsDecider, type UserAchievementsEvent } from './user-achievements';

const now = new Date('2026-12-07T10:00:00.000Z');
const at = now.toISOString();
const { given, history } = deciderKit(userAchievementsDecider, now);

const progress = (count: number, position: number, seasonCount = count, season = '2026-q4'): UserAchievementsEvent => ({
  type: 'AchievementProgressRecorded',
  data: { user_id: 'ann', metric: 'post_published', count, season_id: season, season_count: seasonCount, source_position: position, recorded_at: at },
});
const unlocked = (id: string, slug: string, rewards: [number, number, number, number], season: string | null = null): UserAchievementsEvent => ({
  type: 'AchievementUnlocked',
  data: { user_id: 'ann', achievement_id: id, slug, season_id: season, reward_pulse: rewards[0], reward_spark: rewards[1], reward_signal: rewards[2], reward_xp: rewards[3], unlocked_at: at },
});
const post = (position: number) => ({ kind: 'count', userId: 'ann', metric: 'post_published', sourcePosition: position }) as const;

describe('user achievements', () => {
  it('given nothing, when a first post is counted, then the count is 1 and first_post unlocks with its rewards', () =>
    given().when(post(5)).then(progress(1, 5), unlocked('ach_first_post', 'first_post', [0, 5, 0, 10])));

  it('given nine posts counted, when the tenth is, then prolific_writer and the season’s author unlock', () => {
    const past = history(...Array.from({ length: 9 }, (_, i) => post(i + 1)));
    expect(past.filter((e) => e.type === 'AchievementUnlocked')).toHaveLength(1);
    given(...past)
      .when(post(10))
      .then(progress(10, 10), unlocked('ach_prolific_writer', 'prolific_writer', [5, 15, 0, 25]), unlocked('ach_season_author_2026-q4', 'season_author', [10, 30, 0.1, 50], '2026-q4'));
  });

  it('given an event counted, when it is delivered again (same or earlier position), then nothing is recorded', () => {
    given(progress(1, 5), unlocked('ach_first_post', 'first_post', [0, 5, 0, 10])).when(post(5)).thenNothing();
    given(progress(1, 5)).when(post(4)).thenNothing();
  });

  it('given a count of an earlier season, when counted in a new season, then the season count starts again at 1', () =>
    given(progress(3, 3, 3, '2026-q3'), unlocked('ach_first_post', 'first_post', [0, 5, 0, 10])).when(post(4)).then(progress(4, 4, 1)));

  it('given every achievement of a metric unlocked, when counted, then nothing is recorded', () => {
    const all = ['first_boost'].map((slug) => unlocked(`ach_${slug}`, slug, [0, 5, 0, 10]));
    given(...all).when({ kind: 'count', userId: 'ann', metric: 'boost_purchased', sourcePosition: 9 }).thenNothing();
  });

  it('given level 4, when level 10 is observed, then level_5 and level_10 unlock once; observed again, nothing', () => {
    const events = given().when({ kind: 'observe', userId: 'ann', stat: 'level', value: 10 }).events();
    expect(events.map((e) => (e.type === 'AchievementUnlocked' ? e.data.achievement_id : e.type))).toEqual(['ach_level_5', 'ach_level_10']);
    given(...events).when({ kind: 'observe', userId: 'ann', stat: 'level', value: 12 }).thenNothing();
  });

  it('when a streak below every threshold is observed, then nothing unlocks', () =>
    given().when({ kind: 'observe', userId: 'ann', stat: 'streak_days', value: 2 }).thenNothing());

  it('given an unlocked achievement, when its showcase is toggled twice, then it is shown, then hidden', () => {
    const first = unlocked('ach_first_post', 'first_post', [0, 5, 0, 10]);
    const toggle = { kind: 'toggleShowcase', userId: 'ann', achievementId: 'ach_first_post' } as const;
    const shown: UserAchievementsEvent = { type: 'AchievementShowcaseToggled', data: { user_id: 'ann', achievement_id: 'ach_first_post', is_showcased: true, toggled_at: at } };
    given(first).when(toggle).then(shown);
    given(first, shown).when(toggle).then({ type: 'AchievementShowcaseToggled', data: { user_id: 'ann', achievement_id: 'ach_first_post', is_showcased: false, toggled_at: at } });
  });

  it('when showcasing an achievement not unlocked, or unknown, then it is refused as not found', () => {
    given().when({ kind: 'toggleShowcase', userId: 'ann', achievementId: 'ach_first_post' }).thenRefused('not_found', ACHIEVEMENT_NOT_UNLOCKED);
    given().when({ kind: 'toggleShowcase', userId: 'ann', achievementId: 'nope' }).thenRefused('not_found', ACHIEVEMENT_NOT_UNLOCKED);
  });
});
