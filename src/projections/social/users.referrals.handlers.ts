/** The referrals context's events on the `users` read model (spread into usersProjection): the user's referral code (social-routes §0.5, §14). */
import { updateUser } from '../accounts/update-user';
import type { ProjectionHandlers } from '../support/define-projection';

export const USERS_REFERRALS_HANDLERS = {
  ReferralCodeCreated: (event, writer) => updateUser(event, writer, event.data.user_id, { $set: { referral_code: event.data.code } }),
} satisfies ProjectionHandlers;
