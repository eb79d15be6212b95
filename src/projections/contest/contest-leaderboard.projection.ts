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
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port';
import type { ProjectionDefinition, ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import type { ContestEntryEvent } from '../../aggregates/contest/contest-entry';
import { TRACKS, type Track } from '../../aggregates/contest/scoring';
import type { WalletEvent } from '../../aggregates/contest/wallet';
import type { UserEvent } from '../../aggregates/accounts/user.events';
import { applyOnce } from '../support/apply-once';

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

export const contestLeaderboardProjection: ProjectionDefinition = {
  name: 'contestLeaderboard',
  version: 1,
  eventTypes: ['UserRegistered', 'GuestRegistered', 'ContestJoined', 'SparkAwarded'],
  collections: [CONTEST_PROFILES, CONTEST_WALLETS, CONTEST_TRACK_SCORES],
  indexes: [
    { collection: CONTEST_WALLETS, spec: { keys: { season_spark: -1, reached_at: 1, user_id: 1 } } },
    // a registration renames the user's rows: found by user_id, never by a scan
    { collection: CONTEST_WALLETS, spec: { keys: { user_id: 1 } } },
    { collection: CONTEST_TRACK_SCORES, spec: { keys: { track: 1, score: -1, reached_at: 1, user_id: 1 } } },
    { collection: CONTEST_TRACK_SCORES, spec: { keys: { user_id: 1 } } },
  ],
  async apply(event: RecordedEvent, writer: ProjectionWriter): Promise<void> {
    const e = event as RecordedEvent & (UserEvent | ContestEntryEvent | WalletEvent);
    switch (e.type) {
      case 'UserRegistered':
      case 'GuestRegistered': {
        const names = { username: e.data.username, display_name: e.data.display_name };
        applyOnce(writer, CONTEST_PROFILES, e.data.user_id, event, { $set: names });
        // Rows written before the account was known (an award for an unknown id) get the names now.
        const filter = { user_id: e.data.user_id };
        writer.write(CONTEST_WALLETS, { updateMany: { filter, update: { $set: names } } });
        writer.write(CONTEST_TRACK_SCORES, { updateMany: { filter, update: { $set: names } } });
        return;
      }
      case 'ContestJoined': {
        const names = await namesOf(writer, e.data.user_id);
        applyOnce(writer, CONTEST_WALLETS, e.data.user_id, event, {
          $set: { user_id: e.data.user_id, ...names, joined_track: e.data.track, joined_at: e.data.joined_at },
          $setOnInsert: { season_spark: 0, season_pulse: 0, awards: 0, tracks: {}, reached_at: e.data.joined_at },
        });
        return;
      }
      case 'SparkAwarded': {
        const { user_id: userId, amount, tracks, awarded_at: at } = e.data;
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
        return;
      }
      default:
        return;
    }
  },
};
