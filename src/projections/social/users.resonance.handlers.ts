/**
 * The wallet's XP on the `users` read model (spread into usersProjection):
 * the User record's `level` and `level_title` (§0.5) follow the XP the
 * user's wallet earned (rewards, daily check-ins), by the one levels formula
 * (aggregates/contest/levels.ts) the wallet routes use.
 */
import { updateUser } from '../accounts/update-user';
import type { ProjectionHandlers } from '../support/define-projection';

export const USERS_RESONANCE_HANDLERS = {
  RewardGranted: (event, writer) => {
    if (event.data.xp !== 0) updateUser(event, writer, event.data.user_id, { $inc: { xp: event.data.xp } });
  },
  DailyCheckedIn: (event, writer) => {
    if (event.data.xp_bonus !== 0) updateUser(event, writer, event.data.user_id, { $inc: { xp: event.data.xp_bonus } });
  },
} satisfies ProjectionHandlers;
