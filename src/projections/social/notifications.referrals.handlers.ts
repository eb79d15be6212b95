/**
 * The referrals context's notification rules (social-routes §11, §14): the
 * referrer is told when someone signs up with their code (`referral_signup`)
 * and when that referral is activated (`referral_activated`).
 */
import type { RecordedOf } from '../support/define-projection';
import type { NotificationDraft, NotificationRules } from './notification-draft';

/** The referrer told about the referred user. */
const toReferrer = (event: RecordedOf<'ReferralCreated' | 'ReferralActivated'>, type: string, message: string): NotificationDraft[] => [
  {
    user_id: event.data.referrer_id,
    type,
    source_user_id: event.data.referred_id,
    source_username: event.data.referred_username,
    target_type: 'user',
    target_id: event.data.referred_id,
    message,
  },
];

export const REFERRAL_NOTIFICATION_RULES = {
  ReferralCreated: (event) => toReferrer(event, 'referral_signup', `${event.data.referred_username} joined with your referral code`),
  ReferralActivated: (event) => toReferrer(event, 'referral_activated', `Your referral ${event.data.referred_username} is now active`),
} satisfies NotificationRules;
