/**
 * Reads of achievements, challenges, seasons and collectibles (social-routes
 * §15): the catalogue and the rotating challenges come from code and the
 * clock; who unlocked what, the challenge entries and the season standings
 * from their read models; level and title from the wallets' read model.
 */
import { Inject, Injectable } from '@nestjs/common';
import { type Achievement, achievementById, catalogue, seasonalAchievements } from '../../aggregates/gamification/achievements';
import { type Challenge, isActive, rotatingChallenge, rotatingChallenges, targetOf } from '../../aggregates/gamification/challenges';
import { type Season, seasonById, seasonOf } from '../../aggregates/gamification/seasons';
import { titleOf } from '../../aggregates/contest/levels';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { USER_ACHIEVEMENTS, type UserAchievementDoc } from '../../projections/gamification/achievements.projection';
import { CHALLENGE_ENTRIES, type ChallengeDoc, type ChallengeEntryDoc, CHALLENGES } from '../../projections/gamification/challenges.projection';
import { SEASON_STANDINGS, type SeasonStandingDoc } from '../../projections/gamification/season-standings.projection';
import { RESONANCE_WALLETS, type WalletDoc } from '../../projections/resonance/wallets.projection';
import { AccountsQueries } from '../accounts/accounts.queries';
import { escapeHtml } from '../common/html-escape';
import type { Page } from '../common/paging';

export type UnlockedAchievement = Achievement & { unlocked_at: string; is_showcased: boolean };

export interface UserProgress {
  user_progress: number;
  user_target: number;
  completed: boolean;
  rewarded: boolean;
}

export type ChallengeView = Challenge & { is_active: boolean } & Partial<UserProgress>;

export type SeasonView = Season & { is_active: boolean; rewards: Pick<Achievement, 'id' | 'name' | 'reward_pulse' | 'reward_spark' | 'reward_signal' | 'reward_xp'>[] };

export interface SeasonRow {
  rank: number;
  user_id: string;
  username: string | null;
  display_name: string | null;
  avatar_url: string | null;
  season_pulse: number;
  season_spark: number;
  level: number;
  level_title: string;
}

export interface Collectibles {
  showcased_achievements: UnlockedAchievement[];
  level: number;
  level_title: string;
}

/** Admin challenges active at once are few; this bounds the reply all the same. */
const ACTIVE_CAP = 200;
/** A user's unlocked achievements: at most the catalogue's permanent ones and the seasonal ones of the seasons they played. */
const UNLOCKED_CAP = 1000;

const challengeOf = (doc: ChallengeDoc): Challenge => ({
  id: doc.id,
  title: escapeHtml(doc.title),
  description: escapeHtml(doc.description),
  challenge_type: doc.challenge_type,
  criteria: doc.criteria,
  reward_pulse: doc.reward_pulse,
  reward_spark: doc.reward_spark,
  reward_signal: doc.reward_signal,
  reward_xp: doc.reward_xp,
  starts_at: doc.starts_at,
  ends_at: doc.ends_at,
  created_by: doc.created_by,
  created_at: doc.created_at,
});

@Injectable()
export class AchievementsQueries {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    private readonly accounts: AccountsQueries,
  ) {}

  /** GET /achievements: the permanent achievements and the current season's (48). */
  catalogue(now: Date): Achievement[] {
    return catalogue(seasonOf(now));
  }

  private async unlocked(userId: string, showcasedOnly: boolean): Promise<UnlockedAchievement[]> {
    const filter = showcasedOnly ? { user_id: String(userId), is_showcased: true } : { user_id: String(userId) };
    const docs = await this.store.collection<UserAchievementDoc>(USER_ACHIEVEMENTS).find(filter, { sort: { seq: -1, _id: 1 }, limit: UNLOCKED_CAP });
    return docs.flatMap((doc) => {
      const achievement = achievementById(doc.achievement_id);
      return achievement ? [{ ...achievement, unlocked_at: doc.unlocked_at, is_showcased: doc.is_showcased }] : [];
    });
  }

  /** GET /achievements/{user_id}: most recently unlocked first. */
  unlockedBy(userId: string): Promise<UnlockedAchievement[]> {
    return this.unlocked(userId, false);
  }

  /** The challenge an id names with its state at `now`, or null. */
  async challenge(id: string, now: Date, viewerId: string | null): Promise<ChallengeView | null> {
    let challenge = rotatingChallenge(id);
    if (!challenge) {
      const doc = await this.store.collection<ChallengeDoc>(CHALLENGES).findOne({ _id: String(id) });
      if (!doc) return null;
      challenge = challengeOf(doc);
    }
    return (await this.withProgress([challenge], now, viewerId))[0];
  }

  /** GET /challenges: active at `now` (starts_at ≤ now ≤ ends_at), ending soonest first. */
  async activeChallenges(now: Date, viewerId: string | null): Promise<ChallengeView[]> {
    const at = now.toISOString();
    const docs = await this.store
      .collection<ChallengeDoc>(CHALLENGES)
      .find({ starts_at: { $lte: at }, ends_at: { $gte: at } }, { sort: { ends_at: 1, _id: 1 }, limit: ACTIVE_CAP });
    const active = [...rotatingChallenges(now), ...docs.map(challengeOf)].sort((a, b) => a.ends_at.localeCompare(b.ends_at) || a.id.localeCompare(b.id));
    return this.withProgress(active, now, viewerId);
  }

  private async withProgress(challenges: Challenge[], now: Date, viewerId: string | null): Promise<ChallengeView[]> {
    const views = challenges.map((c) => ({ ...c, is_active: isActive(c, now) }));
    if (viewerId === null || views.length === 0) return views;
    const entries = await this.store
      .collection<ChallengeEntryDoc>(CHALLENGE_ENTRIES)
      .find({ user_id: String(viewerId), challenge_id: { $in: views.map((c) => c.id) } });
    const byChallenge = new Map(entries.map((e) => [e.challenge_id, e]));
    return views.map((c) => {
      const entry = byChallenge.get(c.id);
      return { ...c, user_progress: entry?.progress ?? 0, user_target: entry?.target ?? targetOf(c), completed: entry?.completed ?? false, rewarded: entry?.rewarded ?? false };
    });
  }

  /** GET /seasons/current. */
  season(season: Season, now: Date): SeasonView {
    const t = now.getTime();
    return {
      ...season,
      is_active: Date.parse(season.starts_at) <= t && t <= Date.parse(season.ends_at),
      rewards: seasonalAchievements(season).map(({ id, name, reward_pulse, reward_spark, reward_signal, reward_xp }) => ({ id, name, reward_pulse, reward_spark, reward_signal, reward_xp })),
    };
  }

  /** The season an id names; anything else is the current season (the original ignores the id). */
  seasonNamed(id: string, now: Date): Season {
    return seasonById(id) ?? seasonOf(now);
  }

  /** GET /seasons/{id}/achievements: that season's seasonal achievements; none for an id that names no season. */
  seasonAchievements(id: string): Achievement[] {
    const season = seasonById(id);
    return season ? seasonalAchievements(season) : [];
  }

  /** GET /seasons/{id}/leaderboard: ranked by season_pulse + season_spark (ties: the lower user id first). */
  async leaderboard(season: Season, page: Page): Promise<{ rows: SeasonRow[]; total: number }> {
    const standings = this.store.collection<SeasonStandingDoc>(SEASON_STANDINGS);
    const filter = { season_id: season.id };
    const [docs, total] = await Promise.all([standings.find(filter, { sort: { season_total: -1, user_id: 1 }, skip: page.offset, limit: page.limit }), standings.countDocuments(filter)]);
    const ids = docs.map((d) => d.user_id);
    const [users, wallets] = await Promise.all([this.accounts.usersByIds(ids), this.store.collection<WalletDoc>(RESONANCE_WALLETS).find({ _id: { $in: ids } })]);
    const walletOf = new Map(wallets.map((w) => [w.user_id, w]));
    const rows = docs.map((doc, i) => {
      const user = users.get(doc.user_id);
      const wallet = walletOf.get(doc.user_id);
      return {
        rank: page.offset + i + 1,
        user_id: doc.user_id,
        username: user?.username ?? null,
        display_name: user ? escapeHtml(user.display_name) : null,
        avatar_url: user?.avatar_url ?? null,
        season_pulse: doc.season_pulse,
        season_spark: doc.season_spark,
        level: wallet?.level ?? 1,
        level_title: wallet?.level_title ?? titleOf(1),
      };
    });
    return { rows, total };
  }

  /** GET /collectibles/{user_id}: showcased achievements, level and title (level 1, Newcomer without a wallet). */
  async collectibles(userId: string): Promise<Collectibles> {
    const [showcased, wallet] = await Promise.all([this.unlocked(userId, true), this.store.collection<WalletDoc>(RESONANCE_WALLETS).findOne({ _id: String(userId) })]);
    return { showcased_achievements: showcased, level: wallet?.level ?? 1, level_title: wallet?.level_title ?? titleOf(1) };
  }
}
