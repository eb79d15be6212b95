/**
 * `achievements`: the achievements users unlocked (social-routes §15), one
 * document per (user, achievement), `_id` `<userId>:<achievementId>`, with
 * when it was unlocked, whether it is showcased, and `seq` (the unlock's
 * global position: most recent first). Upserts keyed by id with the
 * applied-position guard, so a rebuild from the log gives the same documents.
 */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const USER_ACHIEVEMENTS = 'user_achievements';

export interface UserAchievementDoc extends Doc {
  user_id: string;
  achievement_id: string;
  unlocked_at: string;
  is_showcased: boolean;
  seq: number;
}

export const userAchievementDocId = (userId: string, achievementId: string): string => `${userId}:${achievementId}`;

export const achievementsProjection = defineProjection({
  name: 'achievements',
  version: 1,
  collections: [USER_ACHIEVEMENTS],
  indexes: [
    { collection: USER_ACHIEVEMENTS, spec: { keys: { user_id: 1, seq: -1 } } },
    { collection: USER_ACHIEVEMENTS, spec: { keys: { user_id: 1, is_showcased: 1, seq: -1 } } },
  ],
  on: {
    AchievementUnlocked: (event, writer) => {
      const d = event.data;
      applyOnce(writer, USER_ACHIEVEMENTS, userAchievementDocId(d.user_id, d.achievement_id), event, {
        $set: { user_id: d.user_id, achievement_id: d.achievement_id, unlocked_at: d.unlocked_at, seq: event.position },
        $setOnInsert: { is_showcased: false },
      });
    },
    AchievementShowcaseToggled: (event, writer) => {
      const d = event.data;
      applyOnce(writer, USER_ACHIEVEMENTS, userAchievementDocId(d.user_id, d.achievement_id), event, { $set: { is_showcased: d.is_showcased } }, { upsert: false });
    },
  },
});
