/** Reads of the wallet economy (social-routes §15): the `resonanceWallets` read models, joined with the users' records for names. */
import { Inject, Injectable } from '@nestjs/common';
import type { Currency } from '../../aggregates/contest/wallet';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { USERS, type UserDoc } from '../../projections/accounts/users.projection';
import {
  type BoostDoc,
  RESONANCE_BOOSTS,
  RESONANCE_TRANSACTIONS,
  RESONANCE_WALLETS,
  type SourceTotals,
  type TransactionDoc,
  type WalletDoc,
  type WalletRecord,
  walletRecordOf,
} from '../../projections/resonance/wallets.projection';
import { AccountsQueries } from '../accounts/accounts.queries';
import type { Page } from '../common/paging';
import { escapeHtml } from '../common/html-escape';
import type { BoostView } from './resonance.commands';

export const LEADERBOARD_CURRENCIES = ['pulse', 'spark', 'signal', 'xp', 'level'] as const;
export type LeaderboardCurrency = (typeof LEADERBOARD_CURRENCIES)[number];

/** The field a leaderboard ranks by: spark by lifetime spark, level by XP. */
const RANKED_BY: Record<LeaderboardCurrency, keyof WalletRecord> = { pulse: 'pulse', spark: 'spark_lifetime', signal: 'signal', xp: 'xp', level: 'xp' };

export type TransactionView = Omit<TransactionDoc, '_id' | 'seq'>;
export type LeaderboardRow = WalletRecord & { rank: number; username: string | null; display_name: string | null; avatar_url: string | null; user_type: string | null };
export type WalletBreakdown = WalletRecord & { sources: SourceTotals };

@Injectable()
export class ResonanceQueries {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    private readonly accounts: AccountsQueries,
  ) {}

  private wallets() {
    return this.store.collection<WalletDoc>(RESONANCE_WALLETS);
  }

  async wallet(userId: string): Promise<WalletRecord | null> {
    const doc = await this.wallets().findOne({ _id: String(userId) });
    return doc ? walletRecordOf(doc) : null;
  }

  async breakdown(userId: string): Promise<WalletBreakdown | null> {
    const doc = await this.wallets().findOne({ _id: String(userId) });
    return doc ? { ...walletRecordOf(doc), sources: doc.sources ?? {} } : null;
  }

  /** The user's ledger, newest first, of one currency or all. */
  async transactions(userId: string, currency: Currency | null, page: Page): Promise<TransactionView[]> {
    const filter = currency ? { user_id: String(userId), currency: String(currency) } : { user_id: String(userId) };
    const rows = await this.store.collection<TransactionDoc>(RESONANCE_TRANSACTIONS).find(filter, { sort: { seq: -1, _id: -1 }, skip: page.offset, limit: page.limit });
    return rows.map((r) => ({
      id: r.id,
      user_id: r.user_id,
      currency: r.currency,
      amount: r.amount,
      balance_after: r.balance_after,
      source_type: r.source_type,
      source_id: r.source_id,
      description: r.description,
      created_at: r.created_at,
    }));
  }

  /** Wallets ranked by a currency (ties: the lower user id first), of one region's users or of everyone. */
  async leaderboard(currency: LeaderboardCurrency, region: string | null, page: Page): Promise<{ rows: LeaderboardRow[]; total: number }> {
    const field = RANKED_BY[currency];
    let filter: Record<string, unknown> = {};
    if (region !== null) {
      const members = await this.store.collection<UserDoc>(USERS).find({ region_id: String(region) }, { projection: { _id: 1 } });
      filter = { _id: { $in: members.map((u) => u._id) } };
    }
    const [docs, total] = await Promise.all([
      this.wallets().find(filter, { sort: { [field]: -1, user_id: 1 }, skip: page.offset, limit: page.limit }),
      this.wallets().countDocuments(filter),
    ]);
    const users = await this.accounts.usersByIds(docs.map((d) => d.user_id));
    const rows = docs.map((doc, i) => {
      const user = users.get(doc.user_id);
      return {
        ...walletRecordOf(doc),
        rank: page.offset + i + 1,
        username: user?.username ?? null,
        display_name: user ? escapeHtml(user.display_name) : null,
        avatar_url: user?.avatar_url ?? null,
        user_type: user?.user_type ?? null,
      };
    });
    return { rows, total };
  }

  /** The boosts of a target that have not expired at `now`, newest first. */
  async activeBoosts(targetType: string, targetId: string, now: Date): Promise<BoostView[]> {
    const rows = await this.store
      .collection<BoostDoc>(RESONANCE_BOOSTS)
      .find({ target_type: String(targetType), target_id: String(targetId), expires_at: { $gt: now.toISOString() } }, { sort: { created_at: -1, _id: 1 } });
    return rows.map((b) => ({
      id: b.id,
      user_id: b.user_id,
      target_type: b.target_type,
      target_id: b.target_id,
      spark_spent: b.spark_spent,
      boost_multiplier: b.boost_multiplier,
      expires_at: b.expires_at,
      created_at: b.created_at,
    }));
  }
}
