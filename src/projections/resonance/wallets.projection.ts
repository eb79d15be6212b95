/**
 * `resonanceWallets`: the wallets of the social platform's economy
 * (social-routes §15) from the wallet streams' events.
 *
 * - `resonance_wallets`: one document per user with a wallet, in the Wallet
 *   shape of §0.5 (balances, level from XP, streak, season totals) plus
 *   `sources` (per source type: ledger rows and their sum) for the breakdown.
 * - `resonance_transactions`: the ledger, one row per balance change of an
 *   event (`walletEntries`, the decider's own account of the event), with the
 *   balance after it; `seq` is the event's global position (newest first).
 * - `resonance_boosts`: every boost bought, with its expiry.
 *
 * A wallet document is the fold of its events: a handler reads it (a
 * projection reads its own queued writes), skips an event at or before its
 * `_pos` (replay, redelivery), and writes the next state, so a rebuild from
 * the log gives the same documents.
 */
import { levelOf } from '../../aggregates/contest/levels';
import { type BoostPurchased, type Currency, roundSpark, type WalletEvent, walletEntries } from '../../aggregates/contest/wallet';
import type { ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc, IndexSpec } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection, type RecordedOf } from '../support/define-projection';

export const RESONANCE_WALLETS = 'resonance_wallets';
export const RESONANCE_TRANSACTIONS = 'resonance_transactions';
export const RESONANCE_BOOSTS = 'resonance_boosts';

/** The Wallet record (§0.5). */
export interface WalletRecord {
  user_id: string;
  pulse: number;
  spark: number;
  spark_lifetime: number;
  signal: number;
  level: number;
  level_title: string;
  xp: number;
  xp_next_level: number;
  streak_days: number;
  streak_best: number;
  last_active_date: string | null;
  season_pulse: number;
  season_spark: number;
}

export type SourceTotals = Record<string, { count: number; total: number }>;

export interface WalletDoc extends Doc, WalletRecord {
  sources: SourceTotals;
  created_at: string;
  updated_at: string;
  _pos?: number;
}

export interface TransactionDoc extends Doc {
  id: string;
  user_id: string;
  currency: Currency;
  amount: number;
  balance_after: number;
  source_type: string;
  source_id: string;
  description: string;
  created_at: string;
  seq: number;
}

/** A boost as the routes show it: BoostPurchased with its id as `id`. */
export type BoostRecord = Omit<BoostPurchased['data'], 'boost_id'> & { id: string };

export type BoostDoc = Doc & BoostRecord;

/** The wallet of a user before any event: zeros, level 1. */
export function emptyWallet(userId: string): WalletRecord {
  return withLevel({
    user_id: userId,
    pulse: 0,
    spark: 0,
    spark_lifetime: 0,
    signal: 0,
    level: 1,
    level_title: '',
    xp: 0,
    xp_next_level: 0,
    streak_days: 0,
    streak_best: 0,
    last_active_date: null,
    season_pulse: 0,
    season_spark: 0,
  });
}

/** The Wallet record fields of a document, in the order of §0.5. */
export function walletRecordOf(doc: WalletRecord): WalletRecord {
  return {
    user_id: doc.user_id,
    pulse: doc.pulse,
    spark: doc.spark,
    spark_lifetime: doc.spark_lifetime,
    signal: doc.signal,
    level: doc.level,
    level_title: doc.level_title,
    xp: doc.xp,
    xp_next_level: doc.xp_next_level,
    streak_days: doc.streak_days,
    streak_best: doc.streak_best,
    last_active_date: doc.last_active_date,
    season_pulse: doc.season_pulse,
    season_spark: doc.season_spark,
  };
}

function withLevel(wallet: WalletRecord): WalletRecord {
  const info = levelOf(wallet.xp);
  return { ...wallet, level: info.level, level_title: info.title, xp_next_level: info.xp_next };
}

type WalletRecorded = RecordedOf<WalletEvent['type']>;

function timeOf(event: WalletRecorded): string {
  switch (event.type) {
    case 'SparkAwarded':
      return event.data.awarded_at;
    case 'RewardGranted':
      return event.data.granted_at;
    case 'WalletOpened':
      return event.data.opened_at;
    case 'BoostPurchased':
      return event.data.created_at;
    case 'DailyCheckedIn':
      return event.data.checked_in_at;
    case 'SparkHeld':
      return event.data.held_at;
    case 'SparkHoldReleased':
      return event.data.released_at;
    case 'AdRevenueShared':
      return event.data.shared_at;
  }
}

async function applyWalletEvent(event: WalletRecorded, writer: ProjectionWriter): Promise<void> {
  const userId = event.data.user_id;
  const current = await writer.reads.collection<WalletDoc>(RESONANCE_WALLETS).findOne({ _id: userId });
  if (current?._pos !== undefined && current._pos >= event.position) return;
  const at = timeOf(event);
  const next: WalletRecord = current ? walletRecordOf(current) : emptyWallet(userId);
  const createdAt = current?.created_at ?? at;
  const sources: SourceTotals = { ...current?.sources };
  /** Every document this event writes is set once, at the event's position. */
  const setOnce = (collection: string, id: string, fields: Record<string, unknown>): void => applyOnce(writer, collection, id, event, { $set: fields });
  walletEntries(event as WalletEvent).forEach((entry, i) => {
    next[entry.currency] = roundSpark(next[entry.currency] + entry.amount);
    // a released hold gives back one's own spark: not earned
    if (entry.currency === 'spark' && entry.amount > 0 && event.type !== 'SparkHoldReleased') next.spark_lifetime += entry.amount;
    const totals = sources[entry.source_type] ?? { count: 0, total: 0 };
    sources[entry.source_type] = { count: totals.count + 1, total: totals.total + entry.amount };
    const id = `${event.metadata.eventId}:${i}`;
    setOnce(RESONANCE_TRANSACTIONS, id, { id, user_id: userId, ...entry, balance_after: next[entry.currency], created_at: at, seq: event.position });
  });
  if (event.type === 'SparkAwarded') next.season_spark += event.data.amount;
  if (event.type === 'RewardGranted') next.season_pulse += event.data.pulse;
  if (event.type === 'DailyCheckedIn') {
    next.streak_days = event.data.streak_days;
    next.streak_best = event.data.streak_best;
    next.last_active_date = event.data.day;
  }
  if (event.type === 'BoostPurchased') {
    const { boost_id: id, ...boost } = event.data;
    setOnce(RESONANCE_BOOSTS, id, { id, ...boost });
  }
  setOnce(RESONANCE_WALLETS, userId, { ...withLevel(next), sources, created_at: createdAt, updated_at: at });
}

export const resonanceWalletsProjection = defineProjection({
  name: 'resonanceWallets',
  version: 1,
  collections: [RESONANCE_WALLETS, RESONANCE_TRANSACTIONS, RESONANCE_BOOSTS],
  indexes: [
    ...(['pulse', 'spark_lifetime', 'signal', 'xp'] as const).map((field) => ({ collection: RESONANCE_WALLETS, spec: { keys: { [field]: -1, user_id: 1 } } as IndexSpec })),
    { collection: RESONANCE_TRANSACTIONS, spec: { keys: { user_id: 1, seq: -1 } } },
    { collection: RESONANCE_TRANSACTIONS, spec: { keys: { user_id: 1, currency: 1, seq: -1 } } },
    { collection: RESONANCE_BOOSTS, spec: { keys: { target_type: 1, target_id: 1, expires_at: 1 } } },
  ],
  on: {
    WalletOpened: applyWalletEvent,
    SparkAwarded: applyWalletEvent,
    RewardGranted: applyWalletEvent,
    BoostPurchased: applyWalletEvent,
    DailyCheckedIn: applyWalletEvent,
    SparkHeld: applyWalletEvent,
    SparkHoldReleased: applyWalletEvent,
    AdRevenueShared: applyWalletEvent,
  },
});
