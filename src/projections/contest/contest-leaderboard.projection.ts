/**
 * `contestLeaderboard`: the spark wallets and the contest leaderboards.
 *
 * - `contest_profiles`: username and display name of every account, from
 *   UserRegistered / GuestRegistered, so leaderboard rows carry names without
 *   reading another projection's collection.
 * - `contest_wallets`: one document per user with a wallet or an entry:
 *   season_spark (sum of SparkAwarded amounts), per-track totals, the joined
 *   track. Also the overall leaderboard, sorted on an index by
 *   {season_spark: -1, reached_at: 1, user_id: 1}.
 * - `contest_track_scores`: one document per (track, user) with the sum of
 *   the user's awards on the track; index {track: 1, score: -1, reached_at: 1, user_id: 1}.
 *
 * `reached_at` is when the score last changed: of two equal scores the one
 * reached first ranks higher, then the lower user id. Every update goes
 * through applyOnce (position guard), so replay and redelivery never double-count.
 */
import { TRACKS, type Track } from '../../aggregates/contest/scoring';
import type { ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection, type RecordedOf } from '../support/define-projection';

export const CONTEST_PROFILES = 'contest_profiles';
export const CONTEST_WALLETS = 'contest_wallets';
export const CONTEST_TRACK_SCORES = 'contest_track_scores';

export interface ContestProfileDoc extends Doc {
  username: string;
  display_name: string;
}

export interface ContestWalletDoc extends Doc {
  user_id: string;
  username: string | null;
  display_name: string | null;
  season_spark: number;
  season_pulse: number;
  awards: number;
  tracks: Partial<Record<Track, number>>;
  joined_track: Track | null;
  joined_at: string | null;
  reached_at: string;
}

export interface ContestTrackScoreDoc extends Doc {
  track: Track;
  user_id: string;
  username: string | null;
  display_name: string | null;
  score: number;
  reached_at: string;
}

export function trackScoreId(track: Track, userId: string): string {
  return `${track}:${userId}`;
}

async function namesOf(writer: ProjectionWriter, userId: string): Promise<{ username: string | null; display_name: string | null }> {
  const profile = await writer.reads.collection<ContestProfileDoc>(CONTEST_PROFILES).findOne({ _id: userId });
  return { username: profile?.username ?? null, display_name: profile?.display_name ?? null };
}

/** An account's names, for the rows that carry them; rows written before the account was known (an award for an unknown id) get them now. */
function registered(event: RecordedOf<'UserRegistered' | 'GuestRegistered'>, writer: ProjectionWriter): void {
  const names = { username: event.data.username, display_name: event.data.display_name };
  applyOnce(writer, CONTEST_PROFILES, event.data.user_id, event, { $set: names });
  const filter = { user_id: event.data.user_id };
  writer.write(CONTEST_WALLETS, { updateMany: { filter, update: { $set: names } } });
  writer.write(CONTEST_TRACK_SCORES, { updateMany: { filter, update: { $set: names } } });
}

export const contestLeaderboardProjection = defineProjection({
  name: 'contestLeaderboard',
  version: 1,
  collections: [CONTEST_PROFILES, CONTEST_WALLETS, CONTEST_TRACK_SCORES],
  indexes: [
    { collection: CONTEST_WALLETS, spec: { keys: { season_spark: -1, reached_at: 1, user_id: 1 } } },
    // a registration renames the user's rows: found by user_id, never by a scan
    { collection: CONTEST_WALLETS, spec: { keys: { user_id: 1 } } },
    { collection: CONTEST_TRACK_SCORES, spec: { keys: { track: 1, score: -1, reached_at: 1, user_id: 1 } } },
    { collection: CONTEST_TRACK_SCORES, spec: { keys: { user_id: 1 } } },
  ],
  on: {
    UserRegistered: registered,
    GuestRegistered: registered,
    ContestJoined: async (event, writer) => {
      const { user_id: userId, track, joined_at: joinedAt } = event.data;
      const names = await namesOf(writer, userId);
      applyOnce(writer, CONTEST_WALLETS, userId, event, {
        $set: { user_id: userId, ...names, joined_track: track, joined_at: joinedAt },
        $setOnInsert: { season_spark: 0, season_pulse: 0, awards: 0, tracks: {}, reached_at: joinedAt },
      });
    },
    SparkAwarded: async (event, writer) => {
      const { user_id: userId, amount, tracks, awarded_at: at } = event.data;
      const names = await namesOf(writer, userId);
      const inc: Record<string, number> = { season_spark: amount, awards: 1 };
      for (const track of TRACKS) if (tracks[track]) inc[`tracks.${track}`] = tracks[track]!;
      applyOnce(writer, CONTEST_WALLETS, userId, event, {
        $inc: inc,
        $set: { user_id: userId, ...names, reached_at: at },
        $setOnInsert: { season_pulse: 0, joined_track: null, joined_at: null },
      });
      for (const track of TRACKS) {
        const points = tracks[track];
        if (!points) continue;
        applyOnce(writer, CONTEST_TRACK_SCORES, trackScoreId(track, userId), event, {
          $inc: { score: points },
          $set: { track, user_id: userId, ...names, reached_at: at },
        });
      }
    },
  },
});
