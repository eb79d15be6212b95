/**
 * A user's spark wallet (stream `wallet-<userId>`). `season_spark` is the sum
 * of the amounts awarded. Every award names its source (event type and id);
 * the wallet remembers the sources it paid and ignores a repeat, so a saga
 * that sees an event twice (redelivery, restart, replay) pays once.
 */
import { DomainError, assertNever } from '../shared/domain-error';
import type { CommandInput, Decider } from '../shared/decider';
import { JOIN_AWARD, TRACKS, type Track, type TrackPoints } from './scoring';

/**
 * Reputation rewards of the social platform (social-routes §21.3, the action
 * table in src/sagas/social-rewards.saga.ts): pulse, spark, signal and XP for
 * an action, paid once per source like the contest's awards. They do not
 * count towards season_spark (the contest's standings).
 */
export interface RewardGranted {
  type: 'RewardGranted';
  data: { user_id: string; action: string; pulse: number; spark: number; signal: number; xp: number; source_type: string; source_id: string; granted_at: string };
}

export type WalletEvent = SparkAwarded | RewardGranted;

export type SparkAwarded = {
  type: 'SparkAwarded';
  data: {
    user_id: string;
    /** added to season_spark: the sum of `tracks` */
    amount: number;
    /** points per contest track */
    tracks: TrackPoints;
    source_type: string;
    source_id: string;
    reason: string;
    awarded_at: string;
  };
};

export interface WalletState {
  /** the stream id names the user */
  seasonSpark: number;
  /** `<source_type>/<source_id>` of every award recorded */
  paidSources: ReadonlySet<string>;
  /** the social platform's reputation (RewardGranted), absent until the first reward */
  reputation?: Reputation;
}

export interface Reputation {
  pulse: number;
  spark: number;
  signal: number;
  xp: number;
}

export type RewardAmounts = Partial<Reputation>;

export type WalletCommand =
  | {
      kind: 'award';
      userId: string;
      tracks: TrackPoints;
      sourceType: string;
      sourceId: string;
      reason: string;
    }
  | { kind: 'reward'; userId: string; action: string; amounts: RewardAmounts; sourceType: string; sourceId: string };

export function walletStreamId(userId: string): string {
  return `wallet-${userId}`;
}

/** The award for joining the contest: 1 spark on the joined track; its source is the user, so it is paid once. */
export function joinAward(userId: string, track: Track): CommandInput<WalletCommand, 'award'> {
  return { userId, tracks: { [track]: JOIN_AWARD.amount }, sourceType: JOIN_AWARD.sourceType, sourceId: userId, reason: JOIN_AWARD.reason };
}

export function sourceKey(sourceType: string, sourceId: string): string {
  return `${sourceType}/${sourceId}`;
}

export const walletDecider: Decider<WalletState, WalletCommand, WalletEvent> = {
  initialState: { seasonSpark: 0, paidSources: new Set() },
  evolve(state, event) {
    switch (event.type) {
      case 'SparkAwarded': {
        const paid = new Set(state.paidSources);
        paid.add(sourceKey(event.data.source_type, event.data.source_id));
        return { ...state, seasonSpark: state.seasonSpark + event.data.amount, paidSources: paid };
      }
      case 'RewardGranted': {
        const paid = new Set(state.paidSources);
        paid.add(sourceKey(event.data.source_type, event.data.source_id));
        const r = state.reputation ?? { pulse: 0, spark: 0, signal: 0, xp: 0 };
        const d = event.data;
        return { ...state, paidSources: paid, reputation: { pulse: r.pulse + d.pulse, spark: r.spark + d.spark, signal: r.signal + d.signal, xp: r.xp + d.xp } };
      }
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    switch (command.kind) {
      case 'award': {
        if (!command.sourceType || !command.sourceId) throw new DomainError('invalid', 'an award needs a source');
        if (state.paidSources.has(sourceKey(command.sourceType, command.sourceId))) return [];
        const tracks: TrackPoints = {};
        let amount = 0;
        for (const track of Object.keys(command.tracks) as Track[]) {
          const points = command.tracks[track];
          if (!TRACKS.includes(track)) throw new DomainError('invalid', `unknown track ${String(track)}`);
          if (points === undefined) continue;
          if (!Number.isInteger(points) || points <= 0) throw new DomainError('invalid', 'award points must be positive integers');
          tracks[track] = points;
          amount += points;
        }
        if (amount === 0) throw new DomainError('invalid', 'an award must be positive');
        return [
          {
            type: 'SparkAwarded',
            data: {
              user_id: command.userId,
              amount,
              tracks,
              source_type: command.sourceType,
              source_id: command.sourceId,
              reason: command.reason,
              awarded_at: now.toISOString(),
            },
          },
        ];
      }
      case 'reward': {
        if (!command.sourceType || !command.sourceId) throw new DomainError('invalid', 'a reward needs a source');
        if (state.paidSources.has(sourceKey(command.sourceType, command.sourceId))) return [];
        const { pulse = 0, spark = 0, signal = 0, xp = 0 } = command.amounts;
        if ([pulse, spark, signal, xp].some((n) => !Number.isFinite(n) || n < 0)) throw new DomainError('invalid', 'reward amounts must be non-negative numbers');
        if (pulse + spark + signal + xp === 0) return [];
        return [
          {
            type: 'RewardGranted',
            data: { user_id: command.userId, action: command.action, pulse, spark, signal, xp, source_type: command.sourceType, source_id: command.sourceId, granted_at: now.toISOString() },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
