/**
 * A user's achievements (social-routes §15), stream `userAchievements-<userId>`:
 * the counts of what the user did, the achievements unlocked, the ones
 * showcased. One stream per user, so a redelivered event or two events racing
 * for the same threshold unlock an achievement once: the decider never
 * records a second AchievementUnlocked of an id.
 *
 * - `count` (the achievements saga, once per source event): the count of the
 *   metric grows by one, and by one within the season of `now`; the
 *   achievements whose threshold it reaches unlock. The source event's global
 *   position is remembered per metric: an event at or before it (a
 *   redelivery, a replay of the saga) counts nothing. Once every achievement
 *   the metric leads to is unlocked, nothing more is recorded.
 * - `observe`: a stat (level, streak) as it is now; the achievements whose
 *   threshold it reaches unlock.
 * - `toggleShowcase`: an unlocked achievement is shown on the profile or
 *   taken off it; any other id is refused (404).
 */
import { DomainError, assertNever } from '../shared/domain-error';
import type { Decider } from '../shared/decider';
import { type Achievement, achievementById, countedBy, type Metric, observedBy, type Stat } from './achievements';
import { seasonOf } from './seasons';

export const ACHIEVEMENT_NOT_UNLOCKED = 'Achievement not found or not unlocked';

export const userAchievementsStreamId = (userId: string): string => `userAchievements-${userId}`;

export interface AchievementUnlockedData {
  user_id: string;
  achievement_id: string;
  slug: string;
  season_id: string | null;
  reward_pulse: number;
  reward_spark: number;
  reward_signal: number;
  reward_xp: number;
  unlocked_at: string;
}

export type UserAchievementsEvent =
  | {
      type: 'AchievementProgressRecorded';
      data: { user_id: string; metric: Metric; count: number; season_id: string; season_count: number; source_position: number; recorded_at: string };
    }
  | { type: 'AchievementUnlocked'; data: AchievementUnlockedData }
  | { type: 'AchievementShowcaseToggled'; data: { user_id: string; achievement_id: string; is_showcased: boolean; toggled_at: string } };

export interface UserAchievementsState {
  counts: Readonly<Record<string, number>>;
  /** per metric: the count within the season last counted in */
  seasonCounts: Readonly<Record<string, { season: string; count: number }>>;
  /** per metric: the global position of the last source event counted */
  marks: Readonly<Record<string, number>>;
  /** achievement id → unlocked_at */
  unlocked: ReadonlyMap<string, string>;
  showcased: ReadonlySet<string>;
}

export type UserAchievementsCommand =
  | { kind: 'count'; userId: string; metric: Metric; sourcePosition: number }
  | { kind: 'observe'; userId: string; stat: Stat; value: number }
  | { kind: 'toggleShowcase'; userId: string; achievementId: string };

function unlock(userId: string, achievement: Achievement, at: string): UserAchievementsEvent {
  return {
    type: 'AchievementUnlocked',
    data: {
      user_id: userId,
      achievement_id: achievement.id,
      slug: achievement.slug,
      season_id: achievement.season_id,
      reward_pulse: achievement.reward_pulse,
      reward_spark: achievement.reward_spark,
      reward_signal: achievement.reward_signal,
      reward_xp: achievement.reward_xp,
      unlocked_at: at,
    },
  };
}

export const userAchievementsDecider: Decider<UserAchievementsState, UserAchievementsCommand, UserAchievementsEvent> = {
  initialState: { counts: {}, seasonCounts: {}, marks: {}, unlocked: new Map(), showcased: new Set() },
  evolve(state, event) {
    switch (event.type) {
      case 'AchievementProgressRecorded': {
        const d = event.data;
        return {
          ...state,
          counts: { ...state.counts, [d.metric]: d.count },
          seasonCounts: { ...state.seasonCounts, [d.metric]: { season: d.season_id, count: d.season_count } },
          marks: { ...state.marks, [d.metric]: d.source_position },
        };
      }
      case 'AchievementUnlocked': {
        const unlocked = new Map(state.unlocked);
        unlocked.set(event.data.achievement_id, event.data.unlocked_at);
        return { ...state, unlocked };
      }
      case 'AchievementShowcaseToggled': {
        const showcased = new Set(state.showcased);
        if (event.data.is_showcased) showcased.add(event.data.achievement_id);
        else showcased.delete(event.data.achievement_id);
        return { ...state, showcased };
      }
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    const at = now.toISOString();
    switch (command.kind) {
      case 'count': {
        const { metric, userId } = command;
        if (command.sourcePosition <= (state.marks[metric] ?? 0)) return [];
        const season = seasonOf(now);
        const pending = countedBy(metric, season).filter((a) => !state.unlocked.has(a.id));
        if (pending.length === 0) return [];
        const count = (state.counts[metric] ?? 0) + 1;
        const previous = state.seasonCounts[metric];
        const seasonCount = previous?.season === season.id ? previous.count + 1 : 1;
        const events: UserAchievementsEvent[] = [
          {
            type: 'AchievementProgressRecorded',
            data: { user_id: userId, metric, count, season_id: season.id, season_count: seasonCount, source_position: command.sourcePosition, recorded_at: at },
          },
        ];
        for (const achievement of pending) {
          const criteria = achievement.criteria;
          if (!('event' in criteria)) continue;
          const reached = criteria.within === 'season' ? seasonCount : count;
          if (reached >= criteria.count) events.push(unlock(userId, achievement, at));
        }
        return events;
      }
      case 'observe': {
        if (!Number.isFinite(command.value)) return [];
        return observedBy(command.stat)
          .filter((a) => !state.unlocked.has(a.id) && 'stat' in a.criteria && command.value >= a.criteria.threshold)
          .map((a) => unlock(command.userId, a, at));
      }
      case 'toggleShowcase': {
        const { achievementId } = command;
        if (!state.unlocked.has(achievementId) || !achievementById(achievementId)) throw new DomainError('not_found', ACHIEVEMENT_NOT_UNLOCKED);
        return [{ type: 'AchievementShowcaseToggled', data: { user_id: command.userId, achievement_id: achievementId, is_showcased: !state.showcased.has(achievementId), toggled_at: at } }];
      }
      default:
        return assertNever(command);
    }
  },
};
