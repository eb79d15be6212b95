/** Reads of the referral read models (social-routes §14). */
import { Inject, Injectable } from '@nestjs/common';
import type { ReferredAccountFacts } from '../../aggregates/referrals/referral';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { USERS, type UserDoc } from '../../projections/accounts/users.projection';
import { REFERRAL_CODES, REFERRALS, type ReferralCodeDoc, type ReferralDoc } from '../../projections/referrals/referrals.projection';

/** GET /referral/code */
export interface ReferralCodeView {
  user_id: string;
  code: string;
  uses: number;
  max_uses: number;
  is_active: boolean;
}

/** The Referral record (§14): the read model's fields the route shows. */
export type ReferralView = { id: string } & Omit<ReferralDoc, '_id' | '_pos' | 'referred_registered_at'>;

/** GET /referral/stats */
export interface ReferralStats {
  code: string | null;
  total_referrals: number;
  activated: number;
  pending: number;
}

/** What a referral needs to know of the account it refers. */
export interface ReferredAccount {
  username: string;
  facts: ReferredAccountFacts;
}

export const codeView = (doc: ReferralCodeDoc): ReferralCodeView => ({
  user_id: doc.user_id,
  code: doc._id,
  uses: doc.uses,
  max_uses: doc.max_uses,
  is_active: doc.is_active,
});

@Injectable()
export class ReferralsQueries {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  private codes() {
    return this.store.collection<ReferralCodeDoc>(REFERRAL_CODES);
  }

  private referrals() {
    return this.store.collection<ReferralDoc>(REFERRALS);
  }

  async codeOf(userId: string): Promise<ReferralCodeView | null> {
    const doc = await this.codes().findOne({ user_id: userId });
    return doc ? codeView(doc) : null;
  }

  async stats(userId: string): Promise<ReferralStats> {
    const [code, total, activated] = await Promise.all([
      this.codes().findOne({ user_id: userId }),
      this.referrals().countDocuments({ referrer_id: userId }),
      this.referrals().countDocuments({ referrer_id: userId, status: 'activated' }),
    ]);
    return { code: code?._id ?? null, total_referrals: total, activated, pending: total - activated };
  }

  /** The account's name and what the activation rule reads; null for an unknown account. */
  async referredAccount(userId: string): Promise<ReferredAccount | null> {
    const user = await this.store.collection<UserDoc>(USERS).findOne({ _id: userId });
    if (!user) return null;
    return {
      username: user.username,
      facts: { registeredAt: user.created_at, postCount: user.post_count, commentCount: user.comment_count, karma: user.karma_score },
    };
  }

  /** The referred users of pending referrals whose accounts were registered in [from, to), the youngest (those that just turned 3 days old) first. */
  async pendingRegisteredBetween(from: Date, to: Date, limit: number): Promise<string[]> {
    const docs = await this.referrals().find(
      { status: 'pending', referred_registered_at: { $gte: from.toISOString(), $lt: to.toISOString() } },
      { sort: { referred_registered_at: -1 }, limit },
    );
    return docs.map((doc) => doc.referred_id);
  }
}
