/**
 * `challenges` (social-routes §15):
 * - `challenges`: the challenges an admin created (ChallengeCreated), as the
 *   routes show them; the rotating ones come from the clock and are not stored.
 * - `challenge_entries`: a user's progress in a challenge, `_id`
 *   `<challengeId>:<userId>`: progress, target, completed, rewarded.
 */
import type { Challenge } from '../../aggregates/gamification/challenges';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const CHALLENGES = 'challenges';
export const CHALLENGE_ENTRIES = 'challenge_entries';

export type ChallengeDoc = Doc & Challenge;

export interface ChallengeEntryDoc extends Doc {
  challenge_id: string;
  user_id: string;
  progress: number;
  target: number;
  completed: boolean;
  rewarded: boolean;
  joined_at: string;
  completed_at: string | null;
  claimed_at: string | null;
}

const entryId = (d: { challenge_id: string; user_id: string }): string => `${d.challenge_id}:${d.user_id}`;

export const challengesProjection = defineProjection({
  name: 'challenges',
  version: 1,
  collections: [CHALLENGES, CHALLENGE_ENTRIES],
  indexes: [
    { collection: CHALLENGES, spec: { keys: { ends_at: 1, starts_at: 1 } } },
    { collection: CHALLENGE_ENTRIES, spec: { keys: { user_id: 1, challenge_id: 1 } } },
  ],
  on: {
    ChallengeCreated: (event, writer) => applyOnce(writer, CHALLENGES, event.data.id, event, { $set: { ...event.data } }),
    ChallengeJoined: (event, writer) => {
      const d = event.data;
      applyOnce(writer, CHALLENGE_ENTRIES, entryId(d), event, {
        $set: { challenge_id: d.challenge_id, user_id: d.user_id, target: d.target, joined_at: d.joined_at },
        $setOnInsert: { progress: 0, completed: false, rewarded: false, completed_at: null, claimed_at: null },
      });
    },
    ChallengeProgressed: (event, writer) => applyOnce(writer, CHALLENGE_ENTRIES, entryId(event.data), event, { $set: { progress: event.data.progress } }, { upsert: false }),
    ChallengeCompleted: (event, writer) =>
      applyOnce(writer, CHALLENGE_ENTRIES, entryId(event.data), event, { $set: { completed: true, completed_at: event.data.completed_at } }, { upsert: false }),
    ChallengeRewardClaimed: (event, writer) =>
      applyOnce(writer, CHALLENGE_ENTRIES, entryId(event.data), event, { $set: { rewarded: true, claimed_at: event.data.claimed_at } }, { upsert: false }),
  },
});
