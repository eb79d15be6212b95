/** Leaderboard reads: sort + limit on the projection's indexes. Filters are built from typed values only. */
import { Inject, Injectable } from '@nestjs/common';
import type { Track } from '../../aggregates/contest/scoring';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import {
  CONTEST_TRACK_SCORES,
  CONTEST_WALLETS,
  type ContestTrackScoreDoc,
  type ContestWalletDoc,
} from '../../projections/contest/contest-leaderboard.projection';

export interface LeaderboardEntry {
  rank: number;
  user_id: string;
  username: string | null;
  display_name: string | null;
  avatar_url: string | null;
  season_pulse: number;
  season_spark: number;
  level: number;
  level_title: string;
  score: number;
  track: Track | 'overall';
}

export interface LeaderboardPage {
  data: LeaderboardEntry[];
  meta: { track: Track | 'overall'; count: number };
}

/** Level by season_spark: the last threshold reached. */
export const LEVELS: readonly { min: number; title: string }[] = [
  { min: 0, title: 'Spark' },
  { min: 10, title: 'Kindler' },
  { min: 100, title: 'Flame' },
  { min: 500, title: 'Blaze' },
  { min: 2000, title: 'Beacon' },
  { min: 10000, title: 'Nova' },
];

export function levelOf(seasonSpark: number): { level: number; level_title: string } {
  let index = 0;
  for (let i = 0; i < LEVELS.length; i++) if (seasonSpark >= LEVELS[i].min) index = i;
  return { level: index + 1, level_title: LEVELS[index].title };
}

@Injectable()
export class ContestQueries {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  wallet(userId: string): Promise<ContestWalletDoc | null> {
    return this.store.collection<ContestWalletDoc>(CONTEST_WALLETS).findOne({ _id: String(userId) });
  }

  /** A board with its meta (`track`: the board's name, `overall` without a track), as GET /leaderboard and the MCP tool reply. */
  async leaderboardPage(track: Track | null, limit: number): Promise<LeaderboardPage> {
    const data = await this.leaderboard(track, limit);
    return { data, meta: { track: track ?? 'overall', count: data.length } };
  }

  async leaderboard(track: Track | null, limit: number): Promise<LeaderboardEntry[]> {
    const wallets = this.store.collection<ContestWalletDoc>(CONTEST_WALLETS);
    if (track === null) {
      const rows = await wallets.find({}, { sort: { season_spark: -1, reached_at: 1, user_id: 1 }, limit });
      return rows.map((w, i) => entry(i + 1, w, w.season_spark + (w.season_pulse ?? 0), 'overall'));
    }
    const rows = await this.store
      .collection<ContestTrackScoreDoc>(CONTEST_TRACK_SCORES)
      .find({ track: String(track) }, { sort: { score: -1, reached_at: 1, user_id: 1 }, limit });
    const ids = rows.map((r) => r.user_id);
    const byId = new Map((ids.length ? await wallets.find({ _id: { $in: ids } }) : []).map((w) => [w._id, w]));
    return rows.map((r, i) => {
      const w = byId.get(r.user_id);
      return entry(i + 1, { ...r, season_spark: w?.season_spark ?? 0, season_pulse: w?.season_pulse ?? 0 }, r.score, track);
    });
  }
}

function entry(
  rank: number,
  row: { user_id: string; username: string | null; display_name: string | null; season_spark: number; season_pulse?: number },
  score: number,
  track: Track | 'overall',
): LeaderboardEntry {
  return {
    rank,
    user_id: row.user_id,
    username: row.username ?? null,
    display_name: row.display_name ?? row.username ?? null,
    avatar_url: null,
    season_pulse: row.season_pulse ?? 0,
    season_spark: row.season_spark,
    ...levelOf(row.season_spark),
    score,
    track,
  };
}
